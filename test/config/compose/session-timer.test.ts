import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { liveSessionClock } from '../../../config/compose/live-session-clock.ts';
import { sessionClockRate, sessionTimer, sessionTimerOf } from '../../../config/compose/session-timer.ts';
import type { VenueSessionOptions } from '../../../config/compose/venue-session-options.ts';

const START = 1_700_000_000_000;

/** A session clock running at `speed` times the (fake) wall clock from START. */
function aReplayClock(speed: () => number) {
  let sessionAt = START;
  let wallAt = Date.now();
  return () => {
    const wall = Date.now();
    sessionAt += (wall - wallAt) * speed();
    wallAt = wall;
    return sessionAt;
  };
}

describe('the session timer (what the journal holds back waits on)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fires after 10 s of session time at paper speed 10: one wall second, not ten', () => {
    const clock = aReplayClock(() => 10);
    const timer = sessionTimer(clock, () => 10);
    const fired: number[] = [];
    timer.setTimer(() => fired.push(clock()), 10_000);
    vi.advanceTimersByTime(999);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual([START + 10_000]);
  });

  it('does not fire before 10 s of session time at paper speed 0.5 (twenty wall seconds)', () => {
    const clock = aReplayClock(() => 0.5);
    const timer = sessionTimer(clock, () => 0.5);
    const fired: number[] = [];
    timer.setTimer(() => fired.push(clock()), 10_000);
    vi.advanceTimersByTime(19_999);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual([START + 10_000]);
  });

  it('follows a clock slower than the rate it was armed at (a lockstep replay below its top speed)', () => {
    let speed = 10;
    const clock = aReplayClock(() => speed);
    const timer = sessionTimer(clock, () => 10);
    const fired: number[] = [];
    timer.setTimer(() => fired.push(clock()), 10_000);
    vi.advanceTimersByTime(500);
    expect(clock()).toBe(START + 5_000);
    speed = 1; // 5 s of session time left, at real time now
    vi.advanceTimersByTime(4_990);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1_010);
    expect(fired).toHaveLength(1);
    expect(fired[0]).toBeGreaterThanOrEqual(START + 10_000);
  });

  it('is cancelled by the function it returns', () => {
    const clock = aReplayClock(() => 1);
    const fired = vi.fn();
    const cancel = sessionTimer(clock, () => 1).setTimer(fired, 2_500);
    vi.advanceTimersByTime(1_500);
    cancel();
    vi.advanceTimersByTime(5_000);
    expect(fired).not.toHaveBeenCalled();
  });
});

/**
 * A live session's clock over a venue clock estimate that a test steps back and forward (as a
 * re-sync from the venue's `Date` headers does), with the session timer on it.
 */
function aSteppedLiveClock() {
  let offsetMs = 0;
  const estimate = (): number => Date.now() + offsetMs;
  const session = liveSessionClock({ now: estimate });
  const armed = vi.spyOn(globalThis, 'setTimeout');
  return {
    session,
    timer: sessionTimer(session, () => 1, estimate),
    armed: () => armed.mock.calls.length,
    step(ms: number): void {
      offsetMs += ms;
    },
  };
}

describe('the session timer of a live session whose venue clock estimate steps', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: START });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('waits out a 2 s step back without polling every millisecond for a timer due in 1 ms', () => {
    const live = aSteppedLiveClock();
    const start = live.session();
    live.step(-2_000);
    const fired: number[] = [];
    live.timer.setTimer(() => fired.push(live.session()), 1);
    vi.advanceTimersByTime(5_000);
    expect(fired).toEqual([start + 1]);
    expect(live.armed()).toBeLessThanOrEqual(3);
  });

  it("waits on a live session's venue clock estimate, and on a paper session's own clock", () => {
    let offsetMs = 0;
    const serverClock = { rate: 1, now: () => Date.now() + offsetMs };
    const sessionClock = liveSessionClock(serverClock);
    const live = { mode: 'live', config: {}, serverClock, sessionClock } as unknown as VenueSessionOptions;
    const armed = vi.spyOn(globalThis, 'setTimeout');
    const fired = vi.fn();
    sessionTimerOf(live).setTimer(fired, 1);
    offsetMs = -2_000;
    vi.advanceTimersByTime(5_000);
    expect(fired).toHaveBeenCalledOnce();
    expect(armed.mock.calls.length).toBeLessThanOrEqual(3);
    const paper = { mode: 'paper', config: { paper: { speed: 1 } }, sessionClock: () => Date.now() };
    sessionTimerOf(paper as unknown as VenueSessionOptions).setTimer(fired, 1_000);
    vi.advanceTimersByTime(1_000);
    expect(fired).toHaveBeenCalledTimes(2);
  });

  it('property: for any steps back and forward, each timer fires once, never before its time on the session clock, without polling', () => {
    const move = fc.oneof(
      fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 1, max: 3_000 }) }),
      fc.record({ kind: fc.constant('step' as const), ms: fc.integer({ min: -60_000, max: 60_000 }) }),
      fc.record({ kind: fc.constant('timer' as const), ms: fc.integer({ min: 0, max: 10_000 }) }),
    );
    fc.assert(
      fc.property(fc.array(move, { minLength: 1, maxLength: 30 }), (moves) => {
        vi.clearAllTimers();
        vi.restoreAllMocks();
        vi.setSystemTime(START);
        const live = aSteppedLiveClock();
        const due: number[] = [];
        const fired: { index: number; at: number }[] = [];
        let stepsBackMs = 0;
        for (const m of moves) {
          if (m.kind === 'wait') vi.advanceTimersByTime(m.ms);
          else if (m.kind === 'step') {
            live.step(m.ms);
            stepsBackMs += Math.max(0, -m.ms);
          } else {
            const index = due.length;
            due.push(live.session() + m.ms);
            live.timer.setTimer(() => fired.push({ index, at: live.session() }), m.ms);
          }
        }
        vi.advanceTimersByTime(stepsBackMs + 15_000);
        expect(fired.map((f) => f.index).sort((a, b) => a - b)).toEqual(due.map((_, i) => i));
        for (const f of fired) expect(f.at).toBeGreaterThanOrEqual(due[f.index] as number);
        // One arming per timer, and a re-arming a wall second while it waits (or a step it waits out).
        const waitedS =
          moves.reduce((sum, m) => sum + (m.kind === 'wait' ? m.ms : 0), stepsBackMs + 15_000) / 1_000;
        expect(live.armed()).toBeLessThanOrEqual(due.length * (waitedS + moves.length + 2));
      }),
      { numRuns: 100 },
    );
  });
});

/**
 * A paper session's clock as `session-run.ts` wires it (the paper venue's: the last released
 * event's time), standing still between the events a test releases, with the session timer on it.
 */
function aPaperSession(speed: number, lockstep = false) {
  let venueAt = START;
  const options = {
    mode: 'paper',
    config: { paper: { speed, lockstep } },
    sessionClock: () => venueAt,
  } as unknown as VenueSessionOptions;
  const armed = vi.spyOn(globalThis, 'setTimeout');
  return {
    timer: sessionTimerOf(options),
    armed: () => armed.mock.calls.length,
    /** The venue releases an event stamped `ts`. */
    release(ts: number): void {
      venueAt = Math.max(venueAt, ts);
    },
  };
}

describe('the session timer of a paper session whose clock stands still while the feed is quiet', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: START });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it.each([
    ['realtime pacing at speed 1', 1, false],
    ['lockstep at speed 20', 20, true],
  ])(
    'does not poll every millisecond for a timer due in 1 ms through 5 quiet seconds (%s)',
    (_, speed, lockstep) => {
      const paper = aPaperSession(speed, lockstep);
      const fired: number[] = [];
      paper.timer.setTimer(() => fired.push(paper.timer.now()), 1);
      vi.advanceTimersByTime(5_000);
      expect(fired).toEqual([]);
      expect(paper.armed()).toBeLessThanOrEqual(20);
      paper.release(START + 1);
      vi.advanceTimersByTime(1_000);
      expect(fired).toEqual([START + 1]);
    },
  );

  it('fires no later after the next event than the clock had stood still before it', () => {
    const paper = aPaperSession(1);
    const fired: number[] = [];
    paper.timer.setTimer(() => fired.push(Date.now() - START), 1);
    vi.advanceTimersByTime(3);
    paper.release(START + 2);
    vi.advanceTimersByTime(10);
    expect(fired).toHaveLength(1);
    expect(fired[0]).toBeLessThanOrEqual(2 * 3 + 1);
  });

  it('fires a statement refresh due in an hour at speed 10 after six wall minutes when events come every minute of the replay', () => {
    const paper = aPaperSession(10);
    const fired: number[] = [];
    paper.timer.setTimer(() => fired.push(paper.timer.now()), 3_600_000);
    for (let minute = 1; minute <= 60; minute++) {
      vi.advanceTimersByTime(6_000);
      paper.release(START + minute * 60_000);
    }
    vi.advanceTimersByTime(1_000);
    expect(fired).toEqual([START + 3_600_000]);
    // A recheck a wall second while it waits, as on a running clock.
    expect(paper.armed()).toBeLessThanOrEqual(60 * 6 + 10);
  });
});

describe('the session clock rate', () => {
  it('is the paper replay speed in paper sessions, the venue clock rate followed in live ones', () => {
    const paper = { mode: 'paper', config: { paper: { speed: 20 } } } as unknown as VenueSessionOptions;
    expect(sessionClockRate(paper)()).toBe(20);
    const venueClock = { rate: 5 };
    const live = { mode: 'live', config: {}, serverClock: venueClock } as unknown as VenueSessionOptions;
    const rate = sessionClockRate(live);
    expect(rate()).toBe(5);
    venueClock.rate = 1;
    expect(rate()).toBe(1);
    expect(sessionClockRate({ mode: 'live', config: {} } as unknown as VenueSessionOptions)()).toBe(1);
  });
});
