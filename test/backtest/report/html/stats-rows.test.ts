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
