import { describe, expect, it } from 'vitest';
import { figuresLine, formatMoney, paidLine, statsRows } from '../../../../backtest/report/index.ts';
import type { BacktestResult } from '../../../../backtest/report/result/backtest-result.ts';
import { aBacktestResult, aBacktestResultWithCashFlows } from '../../../kit/backtest-result-builders.ts';

describe('the terminal summary of a backtest or a session', () => {
  // Reviewer a11y, session 31: the terminal printed Sharpe with toFixed(2) ("0.01") while the HTML
  // report's formatRatio keeps two significant digits of a small ratio ("0.012").
  it.each([0.0123, -0.0456, 1.234, null])(
    'prints equity, return and sharpe %s as the HTML statistics do',
    (sharpe) => {
      const base = aBacktestResult(100);
      const result = { ...base, metrics: { ...base.metrics, sharpe } } as BacktestResult;
      const html = new Map(statsRows(result.metrics, 'USDT').map((r) => [r.label, r.value]));
      const pnl = result.metrics.equityFinal.sub(result.metrics.equityStart);
      expect(figuresLine(result, 'USDT')).toBe(
        `  fills ${[...result.fills].length}, trades ${[...result.trades].length}, equity ${html.get('Equity Start [USDT]')} -> ${html.get('Equity Final [USDT]')} USDT (PnL ${pnl.gt(0) ? '+' : ''}${formatMoney(pnl)} USDT, return ${html.get('Return [%]')}), sharpe ${html.get('Sharpe Ratio')}`,
      );
    },
  );

  it('says why sharpe is n/a, as the HTML statistics do', () => {
    const result = aBacktestResult(4);
    expect(result.metrics.sharpe).toBeNull();
    expect(figuresLine(result, 'USDT')).toMatch(
      /, sharpe n\/a \(not annualized: the run is shorter than a day\)$/,
    );
  });

  it('names funding and interest when the run could pay them or did, with their currency', () => {
    const m = aBacktestResultWithCashFlows().metrics;
    expect(paidLine(m, 'USDT', { perpetuals: true, loans: true })).toBe(
      `  paid: fees ${formatMoney(m.feesPaid)} USDT, funding 0.52 USDT, interest 0.10 USDT`,
    );
  });
});
