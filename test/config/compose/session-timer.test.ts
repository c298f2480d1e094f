import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionClockRate, sessionTimer } from '../../../config/compose/session-timer.ts';
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
