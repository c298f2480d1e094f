import { describe, expect, it } from 'vitest';
import { statsRows } from '../../../../backtest/report/index.ts';
import type { BacktestResult } from '../../../../backtest/report/result/backtest-result.ts';
import { figuresLine } from '../../../../config/cli/commands/backtest-command.ts';
import { aBacktestResult } from '../../../kit/backtest-result-builders.ts';

describe('keel backtest summary', () => {
  // Reviewer a11y, session 31: the terminal printed Sharpe with toFixed(2) ("0.01") while the HTML
  // report's formatRatio keeps two significant digits of a small ratio ("0.012").
  it.each([0.0123, -0.0456, 1.234, null])(
    'prints return, final equity and sharpe %s as the HTML statistics do',
    (sharpe) => {
      const base = aBacktestResult(100);
      const result = { ...base, metrics: { ...base.metrics, sharpe } } as BacktestResult;
      const html = new Map(statsRows(result.metrics, 'USDT').map((r) => [r.label, r.value]));
      expect(figuresLine(result, 'USDT')).toBe(
        `  fills ${[...result.fills].length}, trades ${[...result.trades].length}, return ${html.get('Return [%]')}, final equity ${html.get('Equity Final [USDT]')} USDT, sharpe ${html.get('Sharpe Ratio')}`,
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
});
