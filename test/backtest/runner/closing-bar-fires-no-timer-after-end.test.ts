import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { flatBarsRecordingIn } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anEthSpot } from '../../kit/instrument-builders.ts';
import { TEST_HEADER } from '../../kit/recording-files.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const ETH = 'OKX_SPOT_ETH_USDT';
const T0 = TEST_HEADER.startTime;
const aTempDir = tempDirsRemovedAfterAll('keel-endfix-');

describe("the bar model's end-of-run close fires no timer after the last event", () => {
  it.each([6])(
    'no interest for an hour ending after the last bar, closeAtEnd true, seed %i',
    async (seed) => {
      const recording = await flatBarsRecordingIn(aTempDir(), 61, T0, ETH);
      const borrower = defineStrategy({
        name: 'borrower',
        params: z.object({}),
        state: () => ({ bars: 0 }),
        onStart: (ctx) => ctx.watchBars(ETH, '1m'),
        onBar: (ctx) =>
          ++ctx.state.bars === 1
            ? [
                ctx.order.borrow({ exchange: 'OKX', coin: 'ETH', amount: '5' }),
                ctx.order.market({ sym: ETH, side: 'BUY', qty: 1 }),
              ]
            : undefined,
      });
      const result = await runBacktest({
        ...barRunOptions(recording, [anEthSpot()], [{ id: 's', strategy: borrower }]),
        startingCash: D(1000),
        closeAtEnd: true,
        seed,
        latency: {
          orderEntry: { fixedMs: 20, jitterMs: 30 },
          marketData: { fixedMs: 0, jitterMs: 0 },
          userData: { fixedMs: 5, jitterMs: 0 },
        },
        sim: {
          loans: { assets: { 'OKX:ETH': { annualRate: D('0.876'), userQuota: D(100), pool: D(100) } } },
        },
      });
      const flows = (result.cashFlows ?? []).map(
        (f) => `${f.kind} ${f.asset} ${f.amount.toFixed()} @${f.ts - (T0 + 61 * 60_000)}`,
      );
      const fills = [...result.fills].map(
        (f) => `${f.side} ${f.quantity.toFixed()} @${f.timestamp - (T0 + 61 * 60_000)}`,
      );
      result.dispose?.();
      expect(fills).toEqual(['BUY 1 @-3599965', 'SELL 1 @39']);
      expect(flows.filter((f) => f.includes('INTEREST'))).toEqual([]);
    },
  );
});
