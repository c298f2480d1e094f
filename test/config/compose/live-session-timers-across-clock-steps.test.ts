import fc from 'fast-check';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { liveSessionClock, liveSessionScheduler } from '../../../config/compose/live-session-clock.ts';
import { ServerClock } from '../../../core/venue/index.ts';
import { watchedTimers } from '../../kit/watched-timers.ts';

const T = 1_700_000_000_000;
const silent = pino({ level: 'silent' });

/**
 * A live session's strategy timers on the fake wall clock: Keel's estimate of a venue's clock
 * (a real {@link ServerClock}, re-synced from `Date` headers), the session's clock over it, the
 * live scheduler and the kernel's timers, as `session-run.ts` wires them.
 */
function aLiveSession() {
  vi.useFakeTimers({ now: T });
  const estimate = new ServerClock({ now: () => Date.now(), setTimer: () => () => undefined }, silent);
  let venueOffsetMs = 0;
  /** One REST reply, answered at once: its `Date` header is the venue's clock, to the second. */
  const reply = (): void => {
    const stamped = new Date(Date.now() + venueOffsetMs).toUTCString();
    estimate.observe(stamped, Date.now(), Date.now());
  };
  const session = liveSessionClock(estimate);
  const { timers, fired, wakeRequests } = watchedTimers(liveSessionScheduler(estimate, session), session);
  return {
    estimate,
    session,
    timers,
    fired,
    reply,
    wakeRequests,
    /** Steps the venue's clock against this machine's, as a re-sync will find it. */
    stepVenue(ms: number): void {
      venueOffsetMs += ms;
    },
  };
}

/** What happens next in a session: real time passes, the venue's clock steps, a strategy sets a timer. */
const action = fc.oneof(
  fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 1, max: 3_000 }) }),
  fc.record({ kind: fc.constant('step' as const), ms: fc.integer({ min: -5_000, max: 5_000 }) }),
  fc.record({ kind: fc.constant('bigStep' as const), ms: fc.integer({ min: -120_000, max: 120_000 }) }),
  fc.record({ kind: fc.constant('timer' as const), inMs: fc.integer({ min: 0, max: 20_000 }) }),
);

describe('a live session’s strategy timers when the venue clock estimate steps back or forward', () => {
  afterEach(() => vi.useRealTimers());

  it('holds a timer due 1 s ahead until the estimate, stepped back 2 s by a re-sync, reaches it, and fires it once', () => {
    const s = aLiveSession();
    s.reply();
    const start = s.session();
    s.timers.set(0, start + 1_000, 0, 'in-1s');
    vi.advanceTimersByTime(100);
    s.stepVenue(-2_000);
    s.reply();
    expect(s.estimate.now()).toBeLessThan(start - 500);
    expect(s.session()).toBe(start);
    // By the wall the timer is due; by the session's clock (held since the step) it is not.
    vi.advanceTimersByTime(1_000);
    expect(s.fired).toEqual([]);
    vi.advanceTimersByTime(3_000);
    expect(s.fired.map((f) => f.id)).toEqual([1]);
    expect(s.fired[0]?.clockAt).toBeGreaterThanOrEqual(start + 1_000);
    vi.advanceTimersByTime(10_000);
    expect(s.fired).toHaveLength(1);
  });

  it('waits out a 2 s step back of the estimate without waking the kernel every millisecond for a timer due in 1 ms', () => {
    const s = aLiveSession();
    s.reply();
    const start = s.session();
    s.timers.set(0, start + 1, 0, 'in-1ms');
    s.stepVenue(-2_000);
    s.reply();
    vi.advanceTimersByTime(5_000);
    expect(s.fired.map((f) => f.at - start)).toEqual([1]);
    expect(s.wakeRequests()).toBeLessThanOrEqual(3);
  });

  it('fires the timers a re-sync jumping the estimate 30 s forward passed, once each and in due order', () => {
    const s = aLiveSession();
    s.reply();
    const start = s.session();
    for (const inMs of [20_000, 5_000, 10_000, 5_000]) s.timers.set(0, start + inMs, 0, `in-${inMs}`);
    vi.advanceTimersByTime(1_000);
    s.stepVenue(30_000);
    s.reply();
    expect(s.session()).toBeGreaterThan(start + 30_000);
    vi.advanceTimersByTime(30_000);
    expect(s.fired.map((f) => f.at - start)).toEqual([5_000, 5_000, 10_000, 20_000]);
    expect(s.fired.map((f) => f.id)).toEqual([2, 4, 3, 1]);
  });

  it('property: for any clock steps back and forward, each timer fires exactly once, in due order, never before its time on the session clock, without spinning', () => {
    fc.assert(
      fc.property(fc.array(action, { minLength: 1, maxLength: 40 }), (actions) => {
        const s = aLiveSession();
        try {
          s.reply();
          const set: { id: number; at: number }[] = [];
          let sessionSeen = s.session();
          let steps = 0;
          let stepsBackMs = 0;
          for (const a of actions) {
            if (a.kind === 'wait') vi.advanceTimersByTime(a.ms);
            else if (a.kind === 'timer') {
              const at = s.session() + a.inMs;
              set.push({ id: s.timers.set(0, at, 0, 'once'), at });
            } else {
              steps++;
              stepsBackMs += Math.max(0, -a.ms);
              s.stepVenue(a.ms);
              s.reply();
            }
            expect(s.session()).toBeGreaterThanOrEqual(sessionSeen);
            sessionSeen = s.session();
          }
          // The estimate runs on until it is past every timer, however far it stepped back.
          vi.advanceTimersByTime(stepsBackMs + 25_000);
          expect(s.fired.map((f) => f.id).sort((a, b) => a - b)).toEqual(set.map((t) => t.id));
          for (const f of s.fired) expect(f.clockAt).toBeGreaterThanOrEqual(f.at);
          const dueOrder = [...s.fired].sort((a, b) => a.at - b.at || a.id - b.id);
          expect(s.fired).toEqual(dueOrder);
          // One wake-up per timer, plus re-arming while the session's clock waits out a step back.
          expect(s.wakeRequests()).toBeLessThanOrEqual(2 + set.length * (steps + 2));
        } finally {
          vi.useRealTimers();
        }
      }),
      { numRuns: 200 },
    );
  });
});
