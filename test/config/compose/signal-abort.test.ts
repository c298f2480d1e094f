import { describe, expect, it, vi } from 'vitest';
import { EXIT } from '../../../config/cli/exit-codes.ts';
import { abortOnSignal } from '../../../config/compose/signal-abort.ts';

// The handlers are called as the process would call them, not by raising a real signal.
const newest = (signal: 'SIGINT' | 'SIGTERM' | 'SIGHUP') => process.listeners(signal).at(-1) as () => void;
const counts = () => [
  process.listenerCount('SIGINT'),
  process.listenerCount('SIGTERM'),
  process.listenerCount('SIGHUP'),
];

describe('a run a signal cancels', () => {
  it.each([
    ['SIGINT', EXIT.INTERRUPTED],
    ['SIGTERM', EXIT.TERMINATED],
    // A closed terminal killed a backtest outright, its run lock and temporary files left behind.
    ['SIGHUP', EXIT.HANGUP],
  ] as const)('is aborted by a first %s; a second one ends the process at once (exit %i)', (signal, code) => {
    const before = counts();
    const calls: string[] = [];
    const exit = vi.fn((c: number) => calls.push(`exit ${c}`));
    const stop = abortOnSignal(
      { stopping: (s) => calls.push(`stopping on ${s}`), forced: (s) => calls.push(`forced by ${s}`) },
      exit,
    );
    expect(stop.signal.aborted).toBe(false);
    newest(signal)();
    expect(stop.signal.aborted).toBe(true);
    expect(stop.received).toBe(signal);
    expect(calls, 'the first signal is acknowledged at once, before the run reaches its next step').toEqual([
      `stopping on ${signal}`,
    ]);
    newest(signal)();
    expect(calls).toEqual([`stopping on ${signal}`, `forced by ${signal}`, `exit ${code}`]);
    stop.end();
    expect(counts()).toEqual(before);
  });

  it('removes its handlers when the run is over, the second-signal ones included', () => {
    const before = counts();
    const exit = vi.fn();
    const quiet = { stopping: () => {}, forced: () => {} };
    abortOnSignal(quiet, exit).end();
    expect(counts()).toEqual(before);
    const stopped = abortOnSignal(quiet, exit);
    newest('SIGINT')();
    stopped.end();
    expect(counts()).toEqual(before);
    expect(exit).not.toHaveBeenCalled();
  });
});
