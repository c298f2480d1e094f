import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aFeedBar, BTC } from '../../kit/kernel-events.ts';

const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;

function logger(log: string[]) {
  return defineStrategy({
    name: 'dup',
    params: z.object({}),
    onStart: (ctx) => {
      ctx.watchBars(BTC, '1m');
      ctx.watchBars(BTC, '5m');
    },
    onBar: (_ctx, b) => {
      log.push(`${b.interval}@${(b.openTime - T0) / MIN} c${b.close} v${b.volume}`);
    },
  });
}

describe('the same 1m kline of a period arriving twice (two overlapping history files, a CSV and a recording)', () => {
  it('reaches onBar once per period, as the aggregated 5m bar does', () => {
    const log: string[] = [];
    const { kernel } = aKernelRig([{ id: 'd', strategy: logger(log), params: {} }], { start: T0 });
    // Minutes 0..4 from a CSV import (received at the close), each also in the session
    // recording, received 250 ms later with a slightly different volume.
    for (let m = 0; m < 5; m++) {
      const csv = aFeedBar(T0 + m * MIN, [100 + m, 101 + m, 99 + m, 100.5 + m, 2]);
      kernel.push(csv);
      kernel.push({ ...csv, ts: csv.ts + 250, recvTs: csv.recvTs + 250, volume: 2.1 });
    }
    // 5m bar 0: o100 h105 l99 c104.5, volume 5 x 2 = 10 (the repeats are left out as late).
    expect.soft(log.filter((l) => l.startsWith('5m'))).toEqual(['5m@0 c104.5 v10']);
    // One 1m bar per minute, as for the 5m bar.
    expect
      .soft(log.filter((l) => l.startsWith('1m')))
      .toEqual(['1m@0 c100.5 v2', '1m@1 c101.5 v2', '1m@2 c102.5 v2', '1m@3 c103.5 v2', '1m@4 c104.5 v2']);
    // Every repeat is counted for the end-of-run warnings: 5 not delivered as 1m bars; 4 not
    // folded into the forming 5m bar, and the last one after that bar closed, late.
    expect(kernel.lateBarInputs()).toEqual([
      { sym: BTC, interval: '1m', from: '1m', reason: 'repeat', count: 5, firstTs: T0 + MIN + 250 },
      { sym: BTC, interval: '5m', from: '1m', reason: 'late', count: 1, firstTs: T0 + 5 * MIN + 250 },
      { sym: BTC, interval: '5m', from: '1m', reason: 'repeat', count: 4, firstTs: T0 + MIN + 250 },
    ]);
  });
});
