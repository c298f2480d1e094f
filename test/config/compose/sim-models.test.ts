import { describe, expect, it } from 'vitest';
import { specsWithFees, subPortfolioMarkupOf, subPortfolioOf } from '../../../config/compose/sim-models.ts';
import { parseConfigText } from '../../../config/loader/index.ts';
import type { KeelConfig } from '../../../config/schema/index.ts';
import { D } from '../../../core/model/index.ts';
import { BACKTEST_YAML, replaceLine } from '../../kit/config-texts.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';

function parsed(text: string): KeelConfig {
  const result = parseConfigText(text, { file: 'bt.yaml', env: {} });
  if (!result.ok) throw new Error(result.problems.map((p) => p.message).join('; '));
  return result.config;
}

function configWith(fees: string): KeelConfig {
  return parsed(`${BACKTEST_YAML}  fees: ${fees}\n`);
}

/** The backtest config with its strategy trading in sub-portfolio `sub1` of the given markup. */
function inSubPortfolio(feeMarkupBps: string): KeelConfig {
  const text = replaceLine(BACKTEST_YAML, '    use: sma-cross', '    use: sma-cross\n    portfolio: sub1');
  return parsed(`${text}portfolios:\n  subs:\n    - { id: sub1, feeMarkupBps: ${feeMarkupBps} }\n`);
}

describe('fee model from the config', () => {
  const btc = anInstrument('BINANCE_PERP_BTC_USDT');

  it('keeps each instrument schedule under the instrument model', () => {
    const config = configWith('{ model: instrument }');
    const [spec] = specsWithFees([btc], config.backtest?.fees);
    expect(spec?.fees).toEqual(btc.fees);
  });

  it('replaces the schedules by flat rates, a fixed amount per fill and one per order', () => {
    const config = configWith(
      '{ model: flat, makerBps: 1, takerBps: 2.5, fixedPerFill: 0.01, fixedPerOrder: 0.35 }',
    );
    const [spec] = specsWithFees([btc], config.backtest?.fees);
    const fees = spec?.fees;
    expect(
      [fees?.maker, fees?.taker, fees?.fixedPerFill, fees?.fixedPerOrder].map((d) => d?.toFixed()),
    ).toEqual(['0.0001', '0.00025', '0.01', '0.35']);
  });

  it('charges no fixed amount per order unless the flat model names one', () => {
    const config = configWith('{ model: flat, makerBps: 1, takerBps: 2 }');
    const [spec] = specsWithFees([btc], config.backtest?.fees);
    expect(spec?.fees.fixedPerOrder).toBeUndefined();
    expect(spec?.fees.fixedPerFill.toFixed()).toBe('0');
  });

  it("keeps each instrument's own markup: the sub-portfolio's is not written into the specs", () => {
    const marked = anInstrument('BINANCE_PERP_BTC_USDT', {
      fees: { ...btc.fees, markup: D('0.00005') },
    });
    const config = inSubPortfolio('1.25');
    const [instrument] = specsWithFees([marked], config.backtest?.fees);
    const [flat] = specsWithFees(
      [marked],
      configWith('{ model: flat, makerBps: 1, takerBps: 2 }').backtest?.fees,
    );
    expect([instrument?.fees.markup.toFixed(), flat?.fees.markup.toFixed()]).toEqual(['0.00005', '0.00005']);
  });

  it("gives the sub-portfolio's markup as the sim's subPortfolioMarkup, none for the main portfolio", () => {
    // 1.25 bps = 1.25 / 10 000
    expect(subPortfolioMarkupOf(inSubPortfolio('1.25'))?.toFixed()).toBe('0.000125');
    expect(subPortfolioMarkupOf(configWith('{ model: instrument }'))).toBeUndefined();
  });

  it('names the sub-portfolio the strategies trade in, none for the main portfolio', () => {
    expect(subPortfolioOf(inSubPortfolio('0'))).toBe('sub1');
    expect(subPortfolioOf(configWith('{ model: instrument }'))).toBeUndefined();
  });
});
