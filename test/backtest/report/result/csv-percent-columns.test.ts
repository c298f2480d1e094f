import { describe, expect, it } from 'vitest';
import { equityCsvLines, tradesCsvLines } from '../../../../backtest/report/index.ts';
import { D } from '../../../../core/model/index.ts';
import { aBacktestResult } from '../../../kit/backtest-result-builders.ts';

describe('percent columns of trades.csv and equity.csv', () => {
  it("writes a trade's returnPct as its returnFraction with the point moved, free of the float noise of x 100", () => {
    const base = aBacktestResult(60);
    const [trade] = [...base.trades];
    // 0.029 * 100 is 2.9000000000000004; -0.07 * 100 is -7.000000000000001
    const trades = [
      { ...trade!, returnFraction: 0.029 },
      { ...trade!, returnFraction: -0.07 },
    ];
    const lines = [...tradesCsvLines({ ...base, trades, openTrades: [] })];
    const returnPct = lines.slice(1).map((line) => line.split(',')[12]);
    expect(returnPct).toEqual(['2.9', '-7']);
  });

  it('writes drawdownPct as the drawdown with the point moved, free of the float noise of x 100', () => {
    const base = aBacktestResult(60);
    // 1 - 44 / 100 is 0.56, x 100 is 56.00000000000001; 1 - 45 / 100 is 0.55, x 100 is 55.00000000000001
    const equityCurve = [
      { ts: 0, equity: D(100) },
      { ts: 1000, equity: D(44) },
      { ts: 2000, equity: D(45) },
    ];
    const lines = [...equityCsvLines({ ...base, equityCurve })];
    expect(lines.slice(1).map((line) => line.trimEnd().split(',')[3])).toEqual(['0', '56', '55']);
  });
});
