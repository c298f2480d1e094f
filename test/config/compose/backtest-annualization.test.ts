import { describe, expect, it } from 'vitest';
import { annualizationOf } from '../../../config/compose/backtest-run.ts';
import { parseConfigText } from '../../../config/loader/index.ts';
import type { KeelConfig } from '../../../config/schema/index.ts';
import { BACKTEST_YAML } from '../../kit/config-texts.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';

function backtestOf(extra: string): NonNullable<KeelConfig['backtest']> {
  const parsed = parseConfigText(BACKTEST_YAML + extra, { file: 'bt.yaml', env: {} });
  if (!parsed.ok) throw new Error(parsed.problems.map((p) => p.message).join('; '));
  const backtest = parsed.config.backtest;
  if (backtest === undefined) throw new Error('no backtest section');
  return backtest;
}

describe('backtest annualization from the config', () => {
  const btc = anInstrument('BINANCE_PERP_BTC_USDT');
  const aapl = anInstrument('US_EQUITY_AAPL');

  it('takes 365 trading days for crypto and 252 when every instrument is a US equity, by default', () => {
    const backtest = backtestOf('');
    expect(annualizationOf(backtest, [btc])).toEqual({
      tradingDaysPerYear: 365,
      period: 'auto',
      riskFreeRate: 0,
    });
    expect(annualizationOf(backtest, [aapl])).toMatchObject({
      tradingDaysPerYear: 252,
      tradingHours: 'us-equity',
    });
    expect(annualizationOf(backtest, [aapl, btc]).tradingDaysPerYear).toBe(365);
    expect(annualizationOf(backtest, [aapl, btc]).tradingHours).toBeUndefined();
  });

  it('passes what the config sets', () => {
    const backtest = backtestOf(
      '  annualization: { tradingDaysPerYear: 260, period: sample, sampleStepMs: 300000, riskFreeRate: 0.04 }\n',
    );
    expect(annualizationOf(backtest, [aapl])).toEqual({
      tradingDaysPerYear: 260,
      period: 'sample',
      sampleStepMs: 300_000,
      riskFreeRate: 0.04,
      tradingHours: 'us-equity',
    });
  });

  it('names the path of a bad value', () => {
    const parsed = parseConfigText(`${BACKTEST_YAML}  annualization: { period: weekly }\n`, {
      file: 'bt.yaml',
      env: {},
    });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.problems[0]).toMatchObject({ path: ['backtest', 'annualization', 'period'], line: 15 });
      expect(parsed.problems[0]?.message).toMatch(/auto/);
    }
  });
});
