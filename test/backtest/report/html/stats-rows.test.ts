import { describe, expect, it } from 'vitest';
import { type BacktestMetrics, statsRows } from '../../../../backtest/report/index.ts';
import { aBacktestResult } from '../../../kit/backtest-result-builders.ts';

describe('the stats table', () => {
  const base = aBacktestResult(4).metrics;
  const definitionOf = (metrics: BacktestMetrics) =>
    statsRows(metrics).find((row) => row.label === 'Buy & Hold Return [%]')?.definition;

  it('names the sym buy & hold was taken on and why, or the syms of its equal-weight basket', () => {
    const btc = 'BINANCE_PERP_BTC_USDT';
    const eth = 'OKX_SPOT_ETH_USDT';
    expect(definitionOf({ ...base, buyAndHoldBenchmark: { syms: [btc], basis: 'traded' } })).toBe(
      `last / first price - 1 of ${btc}, the sym the strategies traded`,
    );
    expect(definitionOf({ ...base, buyAndHoldBenchmark: { syms: [btc, eth], basis: 'traded' } })).toBe(
      `equal-weight basket: mean of last / first price - 1 over ${btc}, ${eth}, the syms the strategies traded`,
    );
    expect(definitionOf({ ...base, buyAndHoldBenchmark: { syms: [eth], basis: 'recording' } })).toContain(
      "of OKX_SPOT_ETH_USDT, the data's first sym; the strategies traded and named none",
    );
  });

  it('says the formula only for a result written before Keel named the benchmark', () => {
    const { buyAndHoldBenchmark: _, ...older } = base;
    expect(definitionOf(older)).toBe('last price / first price - 1');
  });
});

describe('the stats table: why a figure is n/a', () => {
  const shown = (metrics: BacktestMetrics, label: string) =>
    statsRows(metrics).find((row) => row.label === label)?.value;
  const DAY = 86_400_000;

  it('says a run shorter than a day is not annualized', () => {
    const short = aBacktestResult(4).metrics; // 4 hourly samples
    expect(shown(short, 'Sharpe Ratio')).toBe('n/a (not annualized: the run is shorter than a day)');
    expect(shown(short, 'Sortino Ratio')).toBe('n/a (not annualized: the run is shorter than a day)');
    expect(shown(short, 'Volatility (Ann.) [%]')).toBe('n/a (not annualized: the run is shorter than a day)');
    expect(shown(short, 'CAGR [%]')).toBe('n/a (the run is shorter than a day)');
    expect(shown(short, 'Calmar Ratio')).toBe('n/a (CAGR is n/a: the run is shorter than a day)');
  });

  it('says there were no trades, one trade, no losing or no winning trade', () => {
    const none = aBacktestResult(4).metrics;
    expect(none.tradeCount).toBe(0);
    expect(shown(none, 'Win Rate [%]')).toBe('n/a (no closed trades)');
    expect(shown(none, 'Avg. Trade Duration')).toBe('n/a (no closed trades)');
    expect(shown(none, 'Profit Factor')).toBe('n/a (no closed trades)');
    const oneWin = { ...none, tradeCount: 1, winRate: 1, bestTrade: 0.1, worstTrade: 0.1 };
    expect(shown(oneWin, 'SQN')).toBe('n/a (fewer than two trades)');
    expect(shown(oneWin, 'Profit Factor')).toBe('n/a (no losing trades)');
    expect(shown(oneWin, 'Kelly Criterion')).toBe('n/a (no losing trades)');
    const losers = { ...none, tradeCount: 3, winRate: 0, profitFactor: 0, bestTrade: -0.1, worstTrade: -0.2 };
    expect(shown(losers, 'Kelly Criterion')).toBe('n/a (no winning trades)');
    expect(shown(losers, 'SQN')).toBe('n/a (every trade had the same PnL)');
  });

  it('says the returns had no spread, or no period below the risk-free rate, over a long run', () => {
    const long = aBacktestResult(24 * 5).metrics;
    const annualization = { ...long.annualization, periodsPerYear: 365 };
    // Flat: every period returned 0 = rf / P, so the annualized return is 0 too.
    const flat = {
      ...long,
      durationMs: 5 * DAY,
      annualization,
      annualizedReturn: 0,
      annualizedVolatility: 0,
      sharpe: null,
    };
    expect(shown(flat, 'Sharpe Ratio')).toBe('n/a (zero volatility: the returns do not vary)');
    const steady = { ...flat, annualizedReturn: 0.1 };
    expect(shown(steady, 'Sharpe Ratio')).toBe(
      'n/a (zero volatility: every period returned the same, above the risk-free rate)',
    );
    const few = { ...flat, annualizedVolatility: null };
    expect(shown(few, 'Sharpe Ratio')).toBe('n/a (fewer than two returns)');
    const rising = { ...flat, annualizedReturn: 0.1, annualizedVolatility: 0.2, sortino: null };
    expect(shown(rising, 'Sortino Ratio')).toBe('n/a (no period below the risk-free rate)');
    const ruined = { ...few, annualization: { ...annualization, ruinTs: DAY } };
    expect(shown(ruined, 'Sharpe Ratio')).toBe('n/a (equity reached zero)');
  });

  it('leaves a defined figure as it is', () => {
    const long = aBacktestResult(24 * 5).metrics;
    expect(shown({ ...long, sharpe: 1.234 }, 'Sharpe Ratio')).toBe('1.23');
  });
});

describe('the stats table: where a row named as backtesting.py names it computes another figure', () => {
  const definitionOf = (label: string) =>
    statsRows(aBacktestResult(4).metrics).find((row) => row.label === label)?.definition;

  it("says Volatility, Sharpe, Sortino and Calmar are QuantStats' and how backtesting.py's differ", () => {
    expect(definitionOf('Volatility (Ann.) [%]')).toContain(
      "as QuantStats (backtesting.py: a compounded year's spread",
    );
    expect(definitionOf('Sharpe Ratio')).toContain(
      'as QuantStats (backtesting.py: (Return (Ann.) - rf) / its compounded volatility)',
    );
    expect(definitionOf('Sortino Ratio')).toContain('as QuantStats (backtesting.py: (Return (Ann.) - rf) /');
    expect(definitionOf('Calmar Ratio')).toBe(
      'CAGR / max drawdown, as QuantStats (backtesting.py: Return (Ann.) / max drawdown, the same where Return (Ann.) is CAGR, e.g. daily returns at P = 365)',
    );
  });
});
