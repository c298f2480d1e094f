import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VenueLatency } from '../../../backtest/paper-venue/venue-latency.ts';
import { pacedReplayScheduler } from '../../../config/compose/replay-schedulers.ts';
import { watchedTimers } from '../../kit/watched-timers.ts';

const T0 = Date.UTC(2025, 0, 6, 14, 30);

/**
 * A paper session in realtime pacing on the fake wall clock: the paper venue's replay time (a real
 * {@link VenueLatency}, moved by the releases and command arrivals a test makes), the paced
 * scheduler on it and the kernel's timers, as `paper-run.ts` and the kernel wire them.
 */
function aPacedPaperSession(speed: number) {
  vi.useFakeTimers({ now: T0 });
  let venueAt = 0;
  const latency = new VenueLatency({
    latency: undefined,
    seed: 1,
    pacing: { mode: 'realtime', speed },
    lockstepStallMs: 2_000,
    timer: { now: () => Date.now(), setTimer: () => () => undefined },
    now: () => venueAt,
  });
  let released = T0;
  /** The feed releases its next event, stamped `ts` (never before the last one), now: on time or late. */
  const release = (ts: number): void => {
    released = Math.max(released, ts);
    latency.beforeEvent(released);
    venueAt = Math.max(venueAt, released);
  };
  release(T0);
  let venueTold = 0;
  const scheduler = pacedReplayScheduler(
    T0,
    { now: () => latency.now(), running: () => latency.runningNow() },
    speed,
    () => venueTold++,
  );
  const { timers, fired, wakeRequests } = watchedTimers(scheduler, () => scheduler.clock.now());
  return {
    session: () => scheduler.clock.now(),
    replay: () => latency.now(),
    release,
    /** A delayed command reaches the matching engine now: the venue's clock moves to the replay's time. */
    arrival(): void {
      venueAt = Math.max(venueAt, latency.now());
    },
    timers,
    fired,
    wakeRequests,
    venueTold: () => venueTold,
  };
}

describe('a paced paper session’s strategy timers when the feed releases an event late', () => {
  afterEach(() => vi.useRealTimers());

  it('waits out the replay time a release 1 s late stepped back without waking the kernel (and ticking the venue) every millisecond for a timer due in 1 ms', () => {
    const s = aPacedPaperSession(1);
    // The event due at T0 + 1 s leaves the feed a second late: the replay's running time, read
    // by the session at 2 s, restarts from the event's time.
    vi.advanceTimersByTime(2_000);
    const start = s.session();
    expect(start).toBe(T0 + 2_000);
    s.release(T0 + 1_000);
    expect(s.replay()).toBe(T0 + 1_000);
    s.timers.set(0, start + 1, 0, 'in-1ms');
    vi.advanceTimersByTime(5_000);
    expect(s.fired.map((f) => f.at - start)).toEqual([1]);
    expect(s.fired[0]?.clockAt).toBeGreaterThanOrEqual(start + 1);
    expect(s.wakeRequests()).toBeLessThanOrEqual(3);
    expect(s.venueTold()).toBeLessThanOrEqual(2);
  });

  it('waits out the replay time held at a command’s arrival, ahead of an event released 1 s late, without waking the kernel every millisecond for a timer due in 1 ms', () => {
    const s = aPacedPaperSession(1);
    vi.advanceTimersByTime(2_000);
    // A command sent at 1.95 s with a 50 ms latency arrives at 2 s, before the event due at 1 s leaves.
    s.arrival();
    s.release(T0 + 1_000);
    const start = s.session();
    expect(start).toBe(T0 + 2_000);
    expect(s.replay()).toBe(T0 + 2_000);
    s.timers.set(0, start + 1, 0, 'in-1ms');
    vi.advanceTimersByTime(5_000);
    expect(s.fired.map((f) => f.at - start)).toEqual([1]);
    expect(s.fired[0]?.clockAt).toBeGreaterThanOrEqual(start + 1);
    expect(s.wakeRequests()).toBeLessThanOrEqual(3);
  });

  it('fires a timer due 10 s ahead at speed 20 once the running time a release 5 s late stepped back reaches it: 750 wall ms on, not 500', () => {
    const s = aPacedPaperSession(20);
    vi.advanceTimersByTime(1_000);
    const start = s.session();
    expect(start).toBe(T0 + 20_000);
    s.timers.set(0, start + 10_000, 0, 'in-10s');
    s.release(T0 + 15_000);
    vi.advanceTimersByTime(749);
    expect(s.fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(s.fired.map((f) => f.clockAt - start)).toEqual([10_000]);
  });

  it('property: for any late and on-time releases and command arrivals, each timer fires once, in due order, never before its time on the session clock, without spinning', () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 1, max: 3_000 }) }),
      fc.record({ kind: fc.constant('late' as const), behindMs: fc.integer({ min: 0, max: 5_000 }) }),
      fc.record({ kind: fc.constant('arrival' as const) }),
      fc.record({ kind: fc.constant('timer' as const), inMs: fc.integer({ min: 0, max: 20_000 }) }),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.array(step, { minLength: 1, maxLength: 40 }),
        (speed, steps) => {
          const s = aPacedPaperSession(speed);
          try {
            const set: { id: number; at: number }[] = [];
            let sessionSeen = s.session();
            let releases = 0;
            let behindMs = 0;
            for (const a of steps) {
              if (a.kind === 'wait') vi.advanceTimersByTime(a.ms);
              else if (a.kind === 'arrival') s.arrival();
              else if (a.kind === 'timer') {
                const at = s.session() + a.inMs;
                set.push({ id: s.timers.set(0, at, 0, 'once'), at });
              } else {
                releases++;
                behindMs += a.behindMs;
                s.release(Math.max(T0, s.session() - a.behindMs));
              }
              expect(s.session()).toBeGreaterThanOrEqual(sessionSeen);
              sessionSeen = s.session();
            }
            // The replay runs on until it is past every timer, however late its releases were.
            vi.advanceTimersByTime(Math.ceil((behindMs + 20_000) / speed) + 1);
            expect(s.fired.map((f) => f.id).sort((a, b) => a - b)).toEqual(set.map((t) => t.id));
            for (const f of s.fired) expect(f.clockAt).toBeGreaterThanOrEqual(f.at);
            expect(s.fired).toEqual([...s.fired].sort((a, b) => a.at - b.at || a.id - b.id));
            // One wake-up per timer, plus one more per late release it waited out.
            expect(s.wakeRequests()).toBeLessThanOrEqual(2 + set.length * (releases + 2));
          } finally {
            vi.useRealTimers();
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
