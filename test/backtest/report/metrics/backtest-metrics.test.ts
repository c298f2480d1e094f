import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeMetrics, roundTripsFromFills } from '../../../../backtest/report/index.ts';
import { D, type Dec } from '../../../../core/model/index.ts';
import { arbitraryEquityCurve, equityCurveOf } from '../../../kit/equity-curve-builders.ts';
import { anExecution } from '../../../kit/execution-builders.ts';

const DAY = 86_400_000;

describe('computeMetrics', () => {
  const fills = [
    anExecution({ side: 'BUY', quantity: '1', price: '100', fee: '0.1', timestamp: 0 }),
    anExecution({ side: 'SELL', quantity: '1', price: '110', fee: '0.1', timestamp: DAY }),
    anExecution({ side: 'BUY', quantity: '1', price: '100', fee: '0.1', timestamp: 2 * DAY }),
  ];
  const { closed, open } = roundTripsFromFills(fills);
  const metrics = computeMetrics({
    equityCurve: equityCurveOf([100, 110, 99, 108.9]),
    trades: closed,
    openTrades: open,
    fills,
    // The fills are of BINANCE_PERP_BTC_USDT: buy & hold is its, not the first series'.
    buyAndHold: {
      prices: [
        {
          sym: 'OKX_SPOT_ETH_USDT',
          points: [
            { ts: 0, price: 10 },
            { ts: 3 * DAY, price: 20 },
          ],
        },
        {
          sym: 'BINANCE_PERP_BTC_USDT',
          points: [
            { ts: 0, price: 100 },
            { ts: 3 * DAY, price: 90 },
          ],
        },
      ],
    },
  });

  it('states the run: start, end, duration, equity start, final and peak', () => {
    expect([metrics.start, metrics.end, metrics.durationMs]).toEqual([0, 3 * DAY, 3 * DAY]);
    expect(metrics.equityStart.toFixed()).toBe('100');
    expect(metrics.equityFinal.toFixed()).toBe('108.9');
    expect(metrics.equityPeak.toFixed()).toBe('110');
  });

  it("takes the equity peak from the caller when given, reading no point's equity for it", () => {
    // The points inside a day (not its last, which the daily returns read) refuse a read, as the
    // drawdowns and the mean equity come measured.
    const unread = Array.from({ length: 50 }, (_, i) => ({
      ts: DAY + 1 + i,
      get equity(): Dec {
        throw new Error('a point read for the peak');
      },
    }));
    const given = computeMetrics({
      equityCurve: [
        { ts: 0, equity: D(100) },
        { ts: DAY, equity: D(110) },
        ...unread,
        { ts: 1.5 * DAY, equity: D(99) },
        { ts: 3 * DAY, equity: D(108.9) },
      ],
      trades: closed,
      openTrades: open,
      fills,
      // As a backtest gives them, measured while it ran.
      drawdown: {
        maxDrawdown: 0.1,
        avgDrawdown: 0.1,
        maxDrawdownDurationMs: DAY,
        avgDrawdownDurationMs: DAY,
      },
      meanEquity: 104,
      equityPeak: D(110),
    });
    expect(given.equityPeak.toFixed()).toBe('110');
  });

  it('computes returns against buy & hold, annualized on 365 daily periods', () => {
    expect(metrics.totalReturn).toBeCloseTo(0.089, 12);
    expect(metrics.buyAndHoldReturn).toBeCloseTo(-0.1, 12);
    expect(metrics.buyAndHoldBenchmark).toEqual({ syms: ['BINANCE_PERP_BTC_USDT'], basis: 'traded' });
    expect(metrics.annualization).toEqual({
      period: 'day',
      periodsPerYear: 365,
      tradingDaysPerYear: 365,
      riskFreeRate: 0,
    });
    expect(metrics.sharpe).toBeCloseTo(5.515130703, 8);
    expect(metrics.sortino).toBeCloseTo(11.030261406, 8);
    expect(metrics.cagr).toBeCloseTo(1.089 ** (365 / 3) - 1, 6);
    expect(metrics.calmar).toBeCloseTo(metrics.cagr! / 0.1, 6);
  });

  it('derives exposure from the trades, counting the open one until the end: (1 + 1) / 3 days', () => {
    expect(metrics.exposureTime).toBeCloseTo(2 / 3, 12);
  });

  it('reports drawdowns, trades, fees and turnover', () => {
    expect(metrics.maxDrawdown).toBeCloseTo(0.1, 12);
    expect(metrics.maxDrawdownDurationMs).toBe(2 * DAY);
    expect(metrics.tradeCount).toBe(1);
    expect(metrics.winRate).toBe(1);
    expect(metrics.feesPaid.toFixed()).toBe('0.3');
    expect(metrics.turnover.toFixed()).toBe('310');
  });

  it('refuses an empty equity curve with a sentence saying why', () => {
    expect(() => computeMetrics({ equityCurve: [], trades: [], fills: [] })).toThrow(/equity curve is empty/);
  });

  it('never yields NaN or Infinity, with or without trades', () => {
    fc.assert(
      fc.property(arbitraryEquityCurve(), (curve) => {
        const m = computeMetrics({ equityCurve: curve, trades: [], fills: [] });
        for (const [name, value] of Object.entries(m)) {
          if (typeof value === 'number') expect(Number.isFinite(value), name).toBe(true);
        }
        expect(m.maxDrawdown).toBeGreaterThanOrEqual(0);
        expect(m.maxDrawdown).toBeLessThanOrEqual(1);
        expect(m.exposureTime).toBe(0);
      }),
    );
  });
});
