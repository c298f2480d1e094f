import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessProbe } from '../../../../backtest/report/index.ts';
import {
  acquireRunLock,
  LOCK_STALE_AFTER_MS,
  type LockEnvironment,
  type RunLockResult,
} from '../../../../backtest/report/index.ts';
import { fakeProbe } from '../../../kit/fake-process-probe.ts';

const NOW = Date.UTC(2026, 10, 29, 12, 0, 0);
const noBeat: LockEnvironment['every'] = () => () => {};

/** Run A (pid 7) and run B (pid 8), of one pid namespace, each seeing the other run. */
const probeA = fakeProbe({ self: { pid: 7, ticks: '5000' }, others: { 8: '6000' } });
const probeB = fakeProbe({ self: { pid: 8, ticks: '6000' }, others: { 7: '5000' } });

/** A's probe, which runs `meanwhile` when A calls it for the `at`-th time (0 = first). */
function probeInterruptedAt(at: number, meanwhile: () => void): ProcessProbe {
  let calls = 0;
  const hook = <T>(call: () => T): T => {
    if (calls++ === at) meanwhile();
    return call();
  };
  return {
    pid: probeA.pid,
    readFile: (path) => hook(() => probeA.readFile(path)),
    readLink: (path) => hook(() => probeA.readLink(path)),
    hostname: () => hook(() => probeA.hostname()),
    runs: (pid) => hook(() => probeA.runs(pid)),
  };
}

describe('two runs taking over one stale lock at once', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('lets only one of them hold it', () => {
    dir = mkdtempSync(join(tmpdir(), 'keel-lock-race-'));
    const result = join(dir, 'bt-result.json');
    const lock = `${result}.lock`;
    // A run (pid 99) died holding the lock; two runs (pids 7 and 8, same namespace) start at once.
    writeFileSync(lock, `${JSON.stringify({ pid: 99, startedAt: '2026-11-29T11:00:00.000Z' })}\n`);
    let b: RunLockResult | undefined;
    // Run A has read the stale holder and probes pid 99; meanwhile run B does its whole takeover.
    const racingProbeA = {
      ...probeA,
      pid: 7,
      runs: (pid: number) => {
        if (pid === 99 && b === undefined)
          b = acquireRunLock([result], NOW, { probe: probeB, now: () => NOW, every: noBeat });
        return probeA.runs(pid);
      },
    };
    const a = acquireRunLock([result], NOW, { probe: racingProbeA, now: () => NOW, every: noBeat });
    const holder = JSON.parse(readFileSync(lock, 'utf8')) as { pid: number };
    // B took the lock over first: A finds B's lock where it judged pid 99's, leaves it and stops.
    expect({ a: a.ok, b: b?.ok, fileHolder: holder.pid }).toEqual({ a: false, b: true, fileHolder: 8 });
    expect(a.ok ? '' : a.problem).toContain('another Keel run (pid 8, started 2026-11-29T12:00:00.000Z)');
    expect(readdirSync(dir)).toEqual(['bt-result.json.lock']);
  });

  it('lets exactly one hold it, whichever step of the other run the second takeover falls in', () => {
    const stale = fc.constantFrom(
      `${JSON.stringify({ pid: 99, startedAt: '2026-11-29T11:00:00.000Z' })}\n`,
      `${JSON.stringify({ pid: 7, startedAt: '2026-11-29T11:00:00.000Z' })}\n`,
      '',
    );
    fc.assert(
      fc.property(stale, fc.nat(30), (text, at) => {
        const root = mkdtempSync(join(tmpdir(), 'keel-lock-race-'));
        try {
          const result = join(root, 'bt-result.json');
          writeFileSync(`${result}.lock`, text);
          // Left by a run that died: an unwritten lock is held until it is as old as a stale heartbeat.
          const died = (NOW - LOCK_STALE_AFTER_MS) / 1000;
          utimesSync(`${result}.lock`, died, died);
          let b: RunLockResult | undefined;
          const runB = () => {
            b = acquireRunLock([result], NOW, { probe: probeB, now: () => NOW, every: noBeat });
          };
          const a = acquireRunLock([result], NOW, {
            probe: probeInterruptedAt(at, runB),
            now: () => NOW,
            every: noBeat,
          });
          if (b === undefined) runB();
          const holders = [a.ok ? 7 : undefined, b?.ok ? 8 : undefined].filter((pid) => pid !== undefined);
          const fileHolder = (JSON.parse(readFileSync(`${result}.lock`, 'utf8')) as { pid: number }).pid;
          expect({ holders, files: readdirSync(root) }).toEqual({
            holders: [fileHolder],
            files: ['bt-result.json.lock'],
          });
          if (a.ok) a.lock.release();
          if (b?.ok) b.lock.release();
        } finally {
          rmSync(root, { recursive: true, force: true });
        }
      }),
      { numRuns: 100 },
    );
  });
});
