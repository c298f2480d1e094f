import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anEthSpot } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const ETH = 'OKX_SPOT_ETH_USDT';
const T0 = Date.UTC(2024, 0, 1);
const aTempDir = tempDirsRemovedAfterAll('keel-loan-liquidation-run-');
/** ETH/USDT spot: taker 10 bps, liquidation fee 0.5 %, tick 0.1, lot 0.001. */
const ethSpot = anEthSpot();

/** Flat at 100 for two bars, then a rally through 285.62 to 300, then quiet. */
const BARS = [
  [100, 100, 100, 100],
  [100, 100, 100, 100],
  [200, 300, 200, 210],
  [210, 210, 210, 210],
];

/** Borrows 5 ETH and sells them on the first bar's close: a short sale financed by the loan. */
const shortSeller = defineStrategy({
  name: 'loan-short-seller',
  params: z.object({}),
  state: () => ({ sent: false }),
  onStart: (ctx) => ctx.watchBars(ETH, '1m'),
  onBar: (ctx) => {
    if (ctx.state.sent) return undefined;
    ctx.state.sent = true;
    return [
      ctx.order.borrow({ exchange: 'OKX', coin: 'ETH', amount: '5' }),
      ctx.order.market({ sym: ETH, side: 'SELL', qty: '5' }),
    ];
  },
});

describe('backtest runner: a short sale financed by a loan', () => {
  let recording = '';
  beforeAll(async () => {
    recording = await barsRecordingIn(aTempDir(), BARS, T0, ETH);
  });

  it('is liquidated when the coin rallies: the result lists the liquidation, its fill and fee, and the repayment', async () => {
    const result = await runBacktest({
      ...barRunOptions(recording, [ethSpot], [{ id: 's', strategy: shortSeller }]),
      startingCash: D(1000),
      closeAtEnd: true,
      sim: { loans: { assets: { 'OKX:ETH': { annualRate: D(0), userQuota: D(100), pool: D(100) } } } },
    });
    // sold 5 at bar 1's open 100, fee 0.5: USDT 1499.5. Equity 1499.5 - 5 p < 0.25 p past 285.619:
    // on the rally bar the first tick past it is 285.7; 5 x 285.7 = 1428.5, fee 0.5 % = 7.1425
    expect(result.liquidations).toHaveLength(1);
    const [liquidation] = result.liquidations ?? [];
    expect(liquidation?.eventType).toBe('FULL_LIQUIDATION');
    expect([liquidation?.equityBefore?.toFixed(), liquidation?.maintenanceMargin?.toFixed()]).toEqual([
      '71',
      '71.425',
    ]);
    expect(
      liquidation?.fills.map(
        (f) => `${f.side} ${f.quantity.toFixed()}@${f.price.toFixed()} ${f.fee.toFixed()}`,
      ),
    ).toEqual(['BUY 5@285.7 7.1425']);
    // 1499.5 - 1428.5 - 7.1425, the loan repaid, nothing left to close at the end
    expect(liquidation?.equityAfter?.toFixed()).toBe('63.8575');
    expect(result.metrics.equityFinal.toFixed()).toBe('63.8575');
    expect((result.cashFlows ?? []).map((f) => `${f.kind} ${f.asset} ${f.amount.toFixed()}`)).toEqual([
      'BORROW ETH 5',
      'REPAY ETH -5',
    ]);
    expect(result.openTrades).toEqual([]);
  });
});
