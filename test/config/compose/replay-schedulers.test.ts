import { afterEach, describe, expect, it, vi } from 'vitest';
import { lockstepReplayScheduler, pacedReplayScheduler } from '../../../config/compose/replay-schedulers.ts';

const T0 = Date.UTC(2025, 0, 6, 14, 30);

describe('the clock of a lockstep paper session', () => {
  it('starts at the first event, follows event time and never passes the venue (a wall-clock stamp cannot throw it a year ahead)', () => {
    let venue = 0;
    const scheduler = lockstepReplayScheduler(T0, () => venue);
    expect(scheduler.followsEventTime).toBe(true);
    expect(scheduler.clock.now()).toBe(T0);
    venue = T0 + 1_000;
    scheduler.advanceTo(T0 + 900);
    expect(scheduler.clock.now()).toBe(T0 + 900);
    scheduler.advanceTo(Date.UTC(2026, 10, 22));
    expect(scheduler.clock.now()).toBe(T0 + 1_000);
    scheduler.advanceTo(T0);
    expect(scheduler.clock.now()).toBe(T0 + 1_000);
  });
});

describe('the clock of a paced paper session', () => {
  afterEach(() => vi.useRealTimers());

  it('reads the replay time, from the first event until the venue released one, and never goes back', () => {
    let replay = 0;
    const scheduler = pacedReplayScheduler(T0, { now: () => replay, running: () => replay }, 20, () => {});
    expect(scheduler.followsEventTime).toBe(false);
    expect(scheduler.clock.now()).toBe(T0);
    replay = T0 + 5_000;
    expect(scheduler.clock.now()).toBe(T0 + 5_000);
    // The venue's running time restarts from a late event's time when the feed runs behind its pace.
    replay = T0 + 4_000;
    expect(scheduler.clock.now()).toBe(T0 + 5_000);
  });

  it('wakes a timer when the replay reaches it: after a 20th of its replayed delay at speed 20', () => {
    vi.useFakeTimers();
    const replay = T0;
    const scheduler = pacedReplayScheduler(T0, { now: () => replay, running: () => replay }, 20, () => {});
    const woken: number[] = [];
    scheduler.wakeAt(T0 + 60_000, () => woken.push(1));
    vi.advanceTimersByTime(2_999);
    expect(woken).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(woken).toEqual([1]);
    scheduler.wakeAt(T0 + 60_000, () => woken.push(2));
    scheduler.cancelWake();
    vi.advanceTimersByTime(10_000);
    expect(woken).toEqual([1]);
  });

  it('tells the venue the time its timers fire at before it wakes the kernel, so what they send runs there then', () => {
    vi.useFakeTimers();
    let replay = T0;
    const told: string[] = [];
    const scheduler = pacedReplayScheduler(T0, { now: () => replay, running: () => replay }, 20, (at) =>
      told.push(`venue to T0+${at - T0}`),
    );
    scheduler.wakeAt(T0 + 60_000, () => told.push('kernel woken'));
    replay = T0 + 60_020;
    vi.advanceTimersByTime(3_000);
    expect(told).toEqual(['venue to T0+60020', 'kernel woken']);
  });
});
