import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { wallScheduler } from '../../../core/kernel/index.ts';
import { watchedTimers } from '../../kit/watched-timers.ts';

const T = 1_700_000_000_000;

/** What happens next: real time passes, the wall clock steps, a strategy sets a timer. */
const action = fc.oneof(
  fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 1, max: 5_000 }) }),
  fc.record({ kind: fc.constant('step' as const), ms: fc.integer({ min: -60_000, max: 60_000 }) }),
  fc.record({
    kind: fc.constant('timer' as const),
    inMs: fc.integer({ min: 0, max: 20_000 }),
    every: fc.oneof(fc.constant(0), fc.integer({ min: 500, max: 10_000 })),
  }),
);

describe('kernel timers on the wall scheduler when the wall clock steps back or forward', () => {
  afterEach(() => vi.useRealTimers());

  it('property: each timer fires in due order, never before its time on the clock, a late repeating one once for the periods it missed, without spinning', () => {
    fc.assert(
      fc.property(fc.array(action, { minLength: 1, maxLength: 40 }), (actions) => {
        vi.useFakeTimers({ now: T });
        try {
          const { timers, fired, wakeRequests } = watchedTimers(wallScheduler(), () => Date.now());
          const set = new Map<number, { at: number; every: number }>();
          /** How many firings came before each timer was set. */
          const setAt = new Map<number, number>();
          let stepsBackMs = 0;
          let realMs = 0;
          for (const a of actions) {
            if (a.kind === 'wait') {
              vi.advanceTimersByTime(a.ms);
              realMs += a.ms;
            } else if (a.kind === 'step') {
              vi.setSystemTime(Date.now() + a.ms);
              stepsBackMs += Math.max(0, -a.ms);
            } else {
              const at = Date.now() + a.inMs;
              const id = timers.set(0, at, a.every, 'timer');
              set.set(id, { at, every: a.every });
              setAt.set(id, fired.length);
            }
          }
          vi.advanceTimersByTime(stepsBackMs + 25_000);
          realMs += stepsBackMs + 25_000;
          const end = Date.now();
          for (const f of fired) expect(f.clockAt).toBeGreaterThanOrEqual(f.at);
          // In due order among the timers pending together (a firing that folded missed periods in
          // was due at the first of them): one set after the clock stepped back may be due before
          // one that fired already.
          const dueAt = (f: (typeof fired)[number]): number => f.at - f.missed * (set.get(f.id)?.every ?? 0);
          const pendingSince = new Map<number, number>(setAt);
          for (const [j, f] of fired.entries()) {
            for (let i = pendingSince.get(f.id) as number; i < j; i++)
              expect(dueAt(fired[i] as (typeof fired)[number])).toBeLessThanOrEqual(dueAt(f));
            pendingSince.set(f.id, j + 1);
          }
          for (const [id, { at, every }] of set) {
            const firings = fired.filter((f) => f.id === id);
            if (every === 0) {
              expect(firings.map((f) => [f.at, f.missed])).toEqual([[at, 0]]);
              continue;
            }
            // A repeating timer accounts for each of its times the clock passed exactly once: it
            // fires for it, or a later firing folds it in (`missed`) ...
            const accounted = firings.flatMap((f) =>
              Array.from({ length: f.missed + 1 }, (_, k) => f.at - (f.missed - k) * every),
            );
            const expected = Array.from(
              { length: Math.floor((end - at) / every) + 1 },
              (_, k) => at + k * every,
            );
            expect(accounted).toEqual(expected);
            // ... and never fires back to back: each firing is for its latest time due then.
            for (const f of firings) expect(f.clockAt).toBeLessThan(f.at + every);
          }
          // One wake-up per firing, plus a re-arming for each step back and each timer set.
          expect(wakeRequests()).toBeLessThanOrEqual(
            fired.length + 2 * (actions.length + 1) + realMs / 1_000,
          );
        } finally {
          vi.useRealTimers();
        }
      }),
      { numRuns: 200 },
    );
  });
});
