import { Subject } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineStrategy, Kernel, timerScheduler, wallScheduler } from '../../../core/kernel/index.ts';
import type { MarketEvent } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { aRecordingPort } from '../../kit/recording-execution-port.ts';

/** What a heartbeat strategy saw of each firing of its `every(1000)` timer. */
interface Beat {
  readonly now: number;
  readonly ts: number;
  readonly missed: number;
}

/** A kernel on the wall scheduler whose one strategy beats every second, noting each beat. */
function heartbeatKernel(): { readonly kernel: Kernel; readonly beats: Beat[] } {
  const beats: Beat[] = [];
  const strategy = defineStrategy({
    name: 'heartbeat',
    params: z.object({}),
    onStart: (ctx) => {
      ctx.every(1_000, 'beat');
    },
    onTimer: (ctx, timer) => {
      beats.push({ now: ctx.now(), ts: timer.ts, missed: timer.missed });
    },
  });
  const kernel = new Kernel({
    instruments: [],
    market: new Subject<MarketEvent>(),
    execution: aRecordingPort(),
    gate: new RiskGate(),
    scheduler: wallScheduler(),
    strategies: [{ id: 'hb', strategy }],
  });
  return { kernel, beats };
}

describe('wall scheduler (live and paper)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('wakes the kernel with a real timer for strategy timers, without any market event', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const { kernel, beats } = heartbeatKernel();
    void kernel.start();
    vi.advanceTimersByTime(3_500);
    expect(beats.map((b) => b.now)).toEqual([1_001_000, 1_002_000, 1_003_000]);
    kernel.stop();
    vi.advanceTimersByTime(5_000);
    expect(beats).toHaveLength(3);
  });

  it('fires a repeating timer once, for its latest period, after the process stalled past several periods', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const { kernel, beats } = heartbeatKernel();
    void kernel.start();
    vi.advanceTimersByTime(1_000);
    // The machine sleeps for 9.5 s: its clock moves on, the pending wake-up's 1 s comes after.
    vi.setSystemTime(Date.now() + 9_500);
    vi.advanceTimersByTime(1_500);
    expect(beats).toEqual([
      { now: 1_001_000, ts: 1_001_000, missed: 0 },
      { now: 1_011_500, ts: 1_011_000, missed: 9 },
      { now: 1_012_000, ts: 1_012_000, missed: 0 },
    ]);
    kernel.stop();
  });
});

describe('a timer scheduler whose speed changes', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('re-arms a pending wake-up at the new speed within a wall second of the change', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    let speed = 1;
    const scheduler = timerScheduler({ now: () => Date.now() }, () => speed);
    const woken: number[] = [];
    scheduler.wakeAt(1_060_000, () => woken.push(Date.now()));
    vi.advanceTimersByTime(2_000);
    speed = 10;
    // At the next check (by 1_003_000) 57 s are left on the clock: 5.7 s of wall time at 10x.
    vi.advanceTimersByTime(60_000);
    expect(woken).toEqual([1_008_700]);
  });

  it('wakes at the time armed while the speed stays, and not after a cancel', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const scheduler = timerScheduler({ now: () => Date.now() }, () => 4);
    const woken: number[] = [];
    scheduler.wakeAt(1_010_000, () => woken.push(Date.now()));
    vi.advanceTimersByTime(10_000);
    expect(woken).toEqual([1_002_500]);
    scheduler.wakeAt(1_020_000, () => woken.push(Date.now()));
    scheduler.cancelWake();
    vi.advanceTimersByTime(30_000);
    expect(woken).toEqual([1_002_500]);
  });
});

describe('a timer scheduler when the wall clock steps', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const HOUR_MS = 3_600_000;

  /** Arms a wake-up 10 s ahead, then steps the wall clock by `stepMs` 2 s later; returns when it woke, ms after arming. */
  function wakeAfterStep(stepMs: number): readonly number[] {
    vi.useFakeTimers({ now: 1_000_000 });
    const began = performance.now();
    const woken: number[] = [];
    wallScheduler().wakeAt(Date.now() + 10_000, () => woken.push(performance.now() - began));
    vi.advanceTimersByTime(2_000);
    vi.setSystemTime(Date.now() + stepMs);
    return woken;
  }

  it('wakes 10 s after arming when the wall clock steps back an hour meanwhile, not an hour later', () => {
    const woken = wakeAfterStep(-HOUR_MS);
    vi.advanceTimersByTime(7_999);
    expect(woken).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(woken).toEqual([10_000]);
  });

  it('does not wake before 10 s when the wall clock steps forward an hour meanwhile', () => {
    const woken = wakeAfterStep(HOUR_MS);
    vi.advanceTimersByTime(7_999);
    expect(woken).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(woken).toEqual([10_000]);
  });
});
