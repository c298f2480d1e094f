import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type RoundTripTrade, TradeTally, tradeStats } from '../../../../backtest/report/index.ts';
import { D } from '../../../../core/model/index.ts';
import { aRoundTripTrade } from '../../../kit/round-trip-trade-builders.ts';
import { spillDirectoriesDisposedAfterEach } from '../../../kit/temp-dirs.ts';

const aSpillDirectory = spillDirectoriesDisposedAfterEach('keel-test-tally-');

describe('trade statistics', () => {
  // PnL +10, -5, +20, -5 with returns +10 %, -5 %, +20 %, -5 %
  const trades = [
    aRoundTripTrade(10, 0.1, 1000),
    aRoundTripTrade(-5, -0.05, 3000),
    aRoundTripTrade(20, 0.2, 2000),
    aRoundTripTrade(-5, -0.05, 2000),
  ];
  const stats = tradeStats(trades);

  it('counts trades and wins', () => {
    expect(stats.tradeCount).toBe(4);
    expect(stats.winRate).toBe(0.5);
  });

  it('finds the best and worst trade and the geometric mean trade', () => {
    expect(stats.bestTrade).toBe(0.2);
    expect(stats.worstTrade).toBe(-0.05);
    // (1.1 x 0.95 x 1.2 x 0.95)^(1/4) - 1
    expect(stats.avgTrade).toBeCloseTo(0.04473293374, 10);
  });

  it('measures trade durations', () => {
    expect(stats.maxTradeDurationMs).toBe(3000);
    expect(stats.avgTradeDurationMs).toBe(2000);
  });

  it('profit factor is gross win over gross loss: 30 / 10', () => {
    expect(stats.profitFactor).toBeCloseTo(3, 12);
  });

  it('expectancy is the arithmetic mean trade return: 0.2 / 4', () => {
    expect(stats.expectancy).toBeCloseTo(0.05, 12);
  });

  it('SQN is sqrt(n) x mean(pnl) / std(pnl): 2 x 5 / sqrt(150)', () => {
    expect(stats.sqn).toBeCloseTo(0.8164965809, 10);
  });

  it('has no SQN when the PnL spread is only float noise', () => {
    // Three trades of PnL 0.1: mean = 0.30000000000000004 / 3 = 0.10000000000000002, so the std
    // is 1.7e-17 instead of 0 and SQN was sqrt(3) x 0.1 / 1.7e-17 = 1e16.
    expect(
      tradeStats([
        aRoundTripTrade(0.1, 0.001, 1),
        aRoundTripTrade(0.1, 0.001, 1),
        aRoundTripTrade(0.1, 0.001, 1),
      ]).sqn,
    ).toBeNull();
  });

  it('Kelly is W - (1 - W) / (avgWin / avgLoss): 0.5 - 0.5 / (15 / 5)', () => {
    expect(stats.kelly).toBeCloseTo(1 / 3, 12);
  });

  it('Kelly weighs the losses by 1 - W at a win rate other than one half: 1/3 - (2/3) / (30 / 10)', () => {
    const s = tradeStats([
      aRoundTripTrade(30, 0.3, 1),
      aRoundTripTrade(-10, -0.1, 1),
      aRoundTripTrade(-10, -0.1, 1),
    ]);
    expect(s.kelly).toBeCloseTo(1 / 9, 12);
  });

  it('counts a break-even trade in the win rate but not as a loss: Kelly 0.25 - 0.75 / (30 / 10)', () => {
    // Had the 0 trade counted as a loss, the average loss would be 20 / 3 and Kelly 0.25 - 0.75 / 4.5.
    const s = tradeStats([
      aRoundTripTrade(30, 0.3, 1),
      aRoundTripTrade(-10, -0.1, 1),
      aRoundTripTrade(-10, -0.1, 1),
      aRoundTripTrade(0, 0, 1),
    ]);
    expect(s.winRate).toBe(0.25);
    expect(s.kelly).toBeCloseTo(0, 12);
  });

  it('gives defined values without trades: a zero count and nulls, no NaN', () => {
    // The win rate of no trades is 0 / 0: not defined, so null like every other ratio.
    expect(tradeStats([])).toEqual({
      tradeCount: 0,
      winRate: null,
      bestTrade: null,
      worstTrade: null,
      avgTrade: null,
      maxTradeDurationMs: null,
      avgTradeDurationMs: null,
      profitFactor: null,
      expectancy: null,
      sqn: null,
      kelly: null,
    });
  });

  it('has no profit factor or Kelly without a losing trade', () => {
    const onlyWins = tradeStats([aRoundTripTrade(10, 0.1, 1), aRoundTripTrade(5, 0.05, 1)]);
    expect(onlyWins.profitFactor).toBeNull();
    expect(onlyWins.kelly).toBeNull();
    expect(onlyWins.winRate).toBe(1);
  });

  it('has no Kelly without a winning trade, and a profit factor of 0', () => {
    const onlyLosses = tradeStats([aRoundTripTrade(-10, -0.1, 1), aRoundTripTrade(-5, -0.05, 1)]);
    expect(onlyLosses.kelly).toBeNull();
    expect(onlyLosses.profitFactor).toBe(0);
    expect(onlyLosses.winRate).toBe(0);
  });

  it('has no average trade once a trade lost its whole entry notional, as a short can', () => {
    // A short whose price went from 100 to 250: r = -1.5, and 1 + r < 0 has no geometric mean
    // (backtesting.py shows 0). The other figures still stand: expectancy (-1.5 + 0.1) / 2.
    const short: RoundTripTrade = {
      ...aRoundTripTrade(-150, -1.5, 1),
      direction: 'SHORT',
      exitPrice: D(250),
    };
    const s = tradeStats([short, aRoundTripTrade(10, 0.1, 1)]);
    expect(s.avgTrade).toBeNull();
    expect(s.worstTrade).toBe(-1.5);
    expect(s.expectancy).toBeCloseTo(-0.7, 12);
  });

  it('keeps the win rate in [0, 1] and never yields NaN or Infinity', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.integer({ min: -1000, max: 1000 }),
            fc.double({ min: -1, max: 5, noNaN: true }),
            fc.nat(),
          ),
          { maxLength: 30 },
        ),
        (rows) => {
          const s = tradeStats(rows.map(([pnl, r, d]) => aRoundTripTrade(pnl, r, d)));
          if (rows.length === 0) expect(s.winRate).toBeNull();
          else {
            expect(s.winRate).toBeGreaterThanOrEqual(0);
            expect(s.winRate).toBeLessThanOrEqual(1);
          }
          for (const value of Object.values(s)) {
            if (value !== null) expect(Number.isFinite(value)).toBe(true);
          }
        },
      ),
    );
  });

  it('takes best, worst and longest of 300k trades without spreading them into Math.max', () => {
    const many = Array.from({ length: 300_000 }, (_, i) => aRoundTripTrade(1, (i % 1000) / 10_000, i + 1));
    const big = tradeStats(many);
    expect(big.bestTrade).toBe(0.0999);
    expect(big.worstTrade).toBe(0);
    expect(big.maxTradeDurationMs).toBe(300_000);
  });

  it('gives the same figures, SQN to the last bit, from PnLs kept in a spill directory as from the trades read again', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }),
            fc.integer({ min: 0, max: 9 }),
            fc.double({ min: -0.99, max: 5, noNaN: true }),
          ),
          { minLength: 4_090, maxLength: 4_200 },
        ),
        (drawn) => {
          const trades = drawn.map(([units, scale, r], i) => ({
            ...aRoundTripTrade(0, r, i + 1),
            pnl: D(units).div(D(10).pow(scale)),
          }));
          const kept = new TradeTally(aSpillDirectory());
          for (const trade of trades) kept.add(trade);
          expect(kept.stats(trades)).toEqual(tradeStats(trades));
        },
      ),
      { numRuns: 5 },
    );
  });
});
