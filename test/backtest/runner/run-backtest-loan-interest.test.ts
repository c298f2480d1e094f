import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { barsRecordingIn, flatBarsRecordingIn } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anEthSpot } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const ETH = 'OKX_SPOT_ETH_USDT';
const T0 = Date.UTC(2024, 0, 1);
const aTempDir = tempDirsRemovedAfterAll('keel-loan-interest-run-');

/**
 * Borrows 5 ETH and sells them on the first bar; after three hours of interest (0.0015 ETH) buys
 * back principal and four hours of interest (the repay comes into the fourth hour, which it pays)
 * one lot over (5.003), and repays the 5 once the buy-back has filled.
 */
const shortThenBuyBack = defineStrategy({
  name: 'loan-short-buy-back',
  params: z.object({}),
  state: () => ({ bars: 0 }),
  onStart: (ctx) => ctx.watchBars(ETH, '1m'),
  onBar: (ctx) => {
    ctx.state.bars++;
    if (ctx.state.bars === 1)
      return [
        ctx.order.borrow({ exchange: 'OKX', coin: 'ETH', amount: '5' }),
        ctx.order.market({ sym: ETH, side: 'SELL', qty: '5' }),
      ];
    if (ctx.state.bars === 190) return [ctx.order.market({ sym: ETH, side: 'BUY', qty: '5.003' })];
    if (ctx.state.bars === 192) return [ctx.order.repay({ exchange: 'OKX', coin: 'ETH', amount: '5' })];
    return undefined;
  },
});

describe('backtest runner: a short sale financed by a loan, bought back with its interest', () => {
  let recording = '';
  beforeAll(async () => {
    recording = await flatBarsRecordingIn(aTempDir(), 200, T0, ETH);
  });

  it('ends with an end-of-run close that sells exactly the ETH left after the interest (hand-computed)', async () => {
    const result = await runBacktest({
      ...barRunOptions(recording, [anEthSpot()], [{ id: 's', strategy: shortThenBuyBack }]),
      startingCash: D(1000),
      closeAtEnd: true,
      // 87.6 % a year: 0.0005 ETH an hour on 5 ETH
      sim: { loans: { assets: { 'OKX:ETH': { annualRate: D('0.876'), userQuota: D(100), pool: D(100) } } } },
    });
    expect((result.cashFlows ?? []).map((f) => `${f.kind} ${f.asset} ${f.amount.toFixed()}`)).toEqual([
      'BORROW ETH 5',
      'DEDUCT_INTEREST ETH -0.0005',
      'DEDUCT_INTEREST ETH -0.0005',
      'DEDUCT_INTEREST ETH -0.0005',
      'DEDUCT_INTEREST ETH -0.0005',
      'REPAY ETH -5',
    ]);
    // ETH -0.0015 + 5.003 - 0.0005 - 5 = 0.001 held: the close sells those, not the 0.003 the trades
    // add up to
    const fills = [...result.fills].map((f) => `${f.side} ${f.quantity.toFixed()}@${f.price.toFixed()}`);
    expect(fills).toEqual(['SELL 5@100', 'BUY 5.003@100', 'SELL 0.001@100']);
    // 1000 + 500 - 0.5 - 500.3 - 0.5003 + 0.1 - 0.0001 (taker 10 bps), with no ETH left
    expect(result.metrics.equityFinal.toFixed()).toBe('998.7996');
    expect([...(result.denials ?? [])]).toEqual([]);
    // The trade list follows the holding: the interest grew the short at its price, the buy-back
    // closed it whole, the fourth hour's interest took 0.0005 of the 0.0015 long it left, and the
    // close sold the 0.001 left; nothing stays open.
    expect(
      [...result.trades].map(
        (t) => `${t.direction} ${t.qty.toFixed()} ${t.entryPrice.toFixed()}->${t.exitPrice.toFixed()}`,
      ),
    ).toEqual(['SHORT 5.0015 100->100', 'LONG 0.001 100->100']);
    expect(result.openTrades ?? []).toEqual([]);
    expect(JSON.stringify(result.meta)).not.toContain('did not fill');
  });

  it('closes the account when the interest is charged in the borrowed coin, counting it at the price the trade list booked it', async () => {
    // ETH at 100 for the first hour, 110 for the second, 120 from the third on
    const rows = Array.from({ length: 200 }, (_, i) => {
      const p = i < 60 ? 100 : i < 120 ? 110 : 120;
      return [p, p + 1, p - 1, p];
    });
    const rising = await barsRecordingIn(aTempDir(), rows, T0, ETH);
    const result = await runBacktest({
      ...barRunOptions(rising, [anEthSpot()], [{ id: 's', strategy: shortThenBuyBack }]),
      startingCash: D(1000),
      closeAtEnd: true,
      sim: { loans: { assets: { 'OKX:ETH': { annualRate: D('0.876'), userQuota: D(100), pool: D(100) } } } },
    });
    const m = result.metrics;
    const gross = [...result.trades].reduce((total, t) => total.plus(t.grossPnl), D(0));
    // The three hourly charges grew the short at its average price (100), whatever ETH cost when
    // they were charged (100, 110, 120); the repay's hour left the long the buy-back opened, at its
    // cost (120). Those values are what the trade list's PnL lacks: interestPaid counts only the
    // account currency's interest.
    const bookedInterest = D('0.0015').mul(100).plus(D('0.0005').mul(120));
    expect(m.interestPaid?.toFixed()).toBe('0');
    expect(result.openTrades ?? []).toEqual([]);
    expect(m.equityFinal.minus(m.equityStart).toFixed()).toBe(
      gross
        .minus(m.feesPaid)
        .minus(m.fundingPaid ?? 0)
        .minus(m.interestPaid ?? 0)
        .minus(bookedInterest)
        .toFixed(),
    );
  });
});
