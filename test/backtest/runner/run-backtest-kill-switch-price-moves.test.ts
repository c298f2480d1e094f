import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { SYNTHETIC_BTC_PERP } from '../../../backtest/synthetic/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate, type RiskGateConfigInput, type TradingStatus } from '../../../core/risk/index.ts';
import { decodeQuotesAndTrades } from '../../kit/quote-trade-decoder.ts';
import { syntheticSessionFile } from '../../kit/synthetic-session-files.ts';

const SYM = SYNTHETIC_BTC_PERP.sym;

/** Buys `qty` at market on the second quote, then never sends anything again. */
const buyAndHold = (qty: number) =>
  defineStrategy({
    name: 'buy-and-hold',
    params: z.object({}),
    state: () => ({ n: 0 }),
    onQuote: (ctx) => {
      ctx.state.n += 1;
      return ctx.state.n === 2 ? ctx.order.market({ sym: SYM, side: 'BUY', qty }) : undefined;
    },
  });

describe('runBacktest: the kill switch sees equity moved by prices alone', () => {
  const session = syntheticSessionFile({ seed: 11, minutes: 30, file: 'long.jsonl.gz' });

  const run = async (killSwitch: RiskGateConfigInput['killSwitch']) => {
    const gate = new RiskGate({ killSwitch });
    const trips: TradingStatus[] = [];
    gate.onKillSwitchTrip((trip) => trips.push(trip));
    const result = await runBacktest({
      recordings: [session.path],
      decode: decodeQuotesAndTrades,
      instruments: [SYNTHETIC_BTC_PERP],
      strategies: [{ id: 's', strategy: buyAndHold(10), params: {} }],
      gate,
      startingCash: D(10_000_000),
      closeAtEnd: false,
      fillModel: 'touch',
      seed: 1,
      equitySampleMs: 1000,
    });
    const curve = [...result.equityCurve].map((p) => ({ ts: p.ts, equity: Number(p.equity.toFixed()) }));
    return { trips, curve, warnings: result.meta.warnings ?? [] };
  };

  it('trips on dailyLossLimit while a position bleeds and the strategy sends nothing', async () => {
    // 10 BTC held: a fall of 50 USDT in the price costs 500. The strategy sends one order only.
    const { trips, curve, warnings } = await run({ dailyLossLimit: '500' });
    const start = curve[0]?.equity as number;
    const worst = curve.reduce((low, p) => (p.equity < low.equity ? p : low));
    expect(start - worst.equity).toBeGreaterThan(500);
    expect(trips.map((t) => t.state)).toEqual(['HALTED']);
    const since = trips[0]?.since as number;
    // The trip comes while the loss grows, before the curve's worst point, within a second of the
    // first sample 500 below the start.
    const firstOver = curve.find((p) => start - p.equity >= 500) as { ts: number };
    expect(since).toBeLessThanOrEqual(worst.ts);
    expect(since).toBeLessThanOrEqual(firstOver.ts + 1000);
    expect(warnings.some((w) => w.includes('kill switch'))).toBe(true);
  });

  it('trips on maxDrawdown from a high-water mark set by prices alone', async () => {
    // 0.01 % of ~10 M is ~1 000: the price's swings with 10 BTC held reach it.
    const { trips, curve } = await run({ maxDrawdown: 0.0001 });
    let high = Number.NEGATIVE_INFINITY;
    let worst = 0;
    for (const p of curve) {
      high = Math.max(high, p.equity);
      worst = Math.max(worst, (high - p.equity) / high);
    }
    expect(worst).toBeGreaterThan(0.0001);
    expect(trips.map((t) => t.state)).toEqual(['HALTED']);
    expect(trips[0]?.reason).toMatch(/drawdown/);
  });

  it('trips at the same time on the same data (observation times are the run time, not the wall clock)', async () => {
    const one = await run({ dailyLossLimit: '500' });
    const two = await run({ dailyLossLimit: '500' });
    expect(one.trips).toHaveLength(1);
    expect(two.trips).toEqual(one.trips);
  });
});
