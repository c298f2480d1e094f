import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { aRecordingKernelRig } from '../../kit/kernel-builders.ts';
import { aPositionUpdate, BTC } from '../../kit/kernel-events.ts';

const ranks: number[] = [];
const watcher = defineStrategy({
  name: 'rank-watcher',
  params: z.object({}),
  onPosition: (ctx) => {
    ranks.push(ctx.adlRank(BTC));
  },
});

describe("a position's ADL rank as the kernel keeps it", () => {
  it('is the rank the position states, and none once the position is flat (it states 0: nothing to deleverage)', () => {
    ranks.length = 0;
    const r = aRecordingKernelRig([{ id: 'w', strategy: watcher }]);
    r.port.emit(aPositionUpdate(1, '2', { adlRank: 3 }));
    r.port.emit(aPositionUpdate(2, '1', { adlRank: 0 }));
    r.port.emit(aPositionUpdate(3, '0', { adlRank: 0 }));
    expect(ranks).toEqual([3, 3, 0]);
  });
});
