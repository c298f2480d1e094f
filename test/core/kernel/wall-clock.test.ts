import { Subject } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineStrategy, Kernel, wallScheduler } from '../../../core/kernel/index.ts';
import type { MarketEvent } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { aRecordingPort } from '../../kit/recording-execution-port.ts';

describe('wall scheduler (live and paper)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('wakes the kernel with a real timer for strategy timers, without any market event', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const fired: number[] = [];
    const strategy = defineStrategy({
      name: 'heartbeat',
      params: z.object({}),
      onStart: (ctx) => {
        ctx.every(1_000, 'beat');
      },
      onTimer: (ctx) => {
        fired.push(ctx.now());
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
    void kernel.start();
    vi.advanceTimersByTime(3_500);
    expect(fired).toEqual([1_001_000, 1_002_000, 1_003_000]);
    kernel.stop();
    vi.advanceTimersByTime(5_000);
    expect(fired).toHaveLength(3);
  });
});
