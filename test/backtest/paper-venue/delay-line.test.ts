import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DelayLine } from '../../../backtest/paper-venue/delay-line.ts';
import { fakeTimer } from '../../kit/venue-fake-timer.ts';

/** A line on a venue clock the test moves, recording what ran and at which due time. */
function aLine(speed?: number) {
  const timer = fakeTimer(0);
  const clock = { now: 0 };
  const line = new DelayLine(
    () => clock.now,
    timer,
    speed === undefined ? undefined : (venueMs) => venueMs / speed,
  );
  const ran: { readonly name: string; readonly due: number }[] = [];
  const enter = (name: string, due: number) => line.enter(due, (at) => ran.push({ name, due: at }));
  return { timer, clock, line, ran, enter };
}

describe('paper venue delay line', () => {
  it('runs work at once when nothing waits and its time has come (zero latency changes nothing)', () => {
    const { clock, ran, enter } = aLine();
    clock.now = 1_000;
    enter('now', 1_000);
    expect(ran).toEqual([{ name: 'now', due: 1_000 }]);
  });

  it('holds work until the venue is about to reach its due time, not one millisecond earlier', () => {
    const { line, ran, enter } = aLine();
    enter('order', 200);
    line.advance(199);
    expect(ran).toEqual([]);
    line.advance(200);
    expect(ran).toEqual([{ name: 'order', due: 200 }]);
  });

  it('raises a due time earlier than the previous entry, so a short delay never overtakes a long one', () => {
    const { line, ran, enter } = aLine();
    enter('slow', 500);
    enter('fast', 100);
    line.advance(100);
    expect(ran).toEqual([]);
    line.advance(500);
    expect(ran).toEqual([
      { name: 'slow', due: 500 },
      { name: 'fast', due: 500 },
    ]);
  });

  it('keeps entry order, runs nothing before its venue time and holds nothing past it (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.record({ kind: fc.constant('enter' as const), delay: fc.integer({ min: 0, max: 1_000 }) }),
            fc.record({ kind: fc.constant('advance' as const), by: fc.integer({ min: 0, max: 600 }) }),
          ),
          { maxLength: 60 },
        ),
        (steps) => {
          const { clock, line } = aLine();
          const entered: { readonly name: string; readonly due: number }[] = [];
          const ran: { readonly name: string; readonly due: number; readonly at: number }[] = [];
          let reaching = 0;
          let lastDue = Number.NEGATIVE_INFINITY;
          for (const step of steps) {
            if (step.kind === 'enter') {
              const name = `c${entered.length}`;
              lastDue = Math.max(lastDue, clock.now + step.delay);
              entered.push({ name, due: lastDue });
              reaching = clock.now;
              line.enter(clock.now + step.delay, (due) => ran.push({ name, due, at: reaching }));
            } else {
              reaching = clock.now + step.by;
              line.advance(reaching);
              clock.now = reaching;
              // Whatever is still waiting is due later than the time just reached.
              for (const waiting of entered.slice(ran.length)) expect(waiting.due).toBeGreaterThan(clock.now);
            }
          }
          for (const r of ran) expect(r.due).toBeLessThanOrEqual(r.at);
          line.flush();
          expect(ran.map((r) => ({ name: r.name, due: r.due }))).toEqual(entered);
        },
      ),
    );
  });

  it('with realtime pacing gives each entry a wall-clock deadline of its delay divided by the speed', async () => {
    const { timer, clock, ran, enter } = aLine(10);
    clock.now = 1_000;
    enter('order', 3_000);
    await timer.advance(199);
    expect(ran).toEqual([]);
    await timer.advance(1);
    expect(ran).toEqual([{ name: 'order', due: 3_000 }]);
  });

  it('on a deadline also runs the entries before it, in order', async () => {
    const { timer, ran, enter } = aLine(1);
    enter('first', 300);
    enter('second', 300);
    await timer.advance(300);
    expect(ran.map((r) => r.name)).toEqual(['first', 'second']);
  });

  it('has no wall-clock deadline without one (manual pacing stays on venue time)', async () => {
    const { timer, line, ran, enter } = aLine(undefined);
    enter('order', 300);
    await timer.advance(10_000);
    expect(ran).toEqual([]);
    line.flush();
    expect(ran).toEqual([{ name: 'order', due: 300 }]);
  });

  it('drops waiting entries and their deadlines on clear', async () => {
    const { timer, line, ran, enter } = aLine(1);
    enter('order', 300);
    line.clear();
    await timer.advance(1_000);
    expect(ran).toEqual([]);
    expect(timer.pending()).toBe(0);
  });
});
