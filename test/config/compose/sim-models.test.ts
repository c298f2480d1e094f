import { describe, expect, it } from 'vitest';
import { specsWithFees } from '../../../config/compose/sim-models.ts';
import { parseConfigText } from '../../../config/loader/index.ts';
import type { KeelConfig } from '../../../config/schema/index.ts';
import { BACKTEST_YAML } from '../../kit/config-texts.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';

function configWith(fees: string): KeelConfig {
  const parsed = parseConfigText(`${BACKTEST_YAML}  fees: ${fees}\n`, { file: 'bt.yaml', env: {} });
  if (!parsed.ok) throw new Error(parsed.problems.map((p) => p.message).join('; '));
  return parsed.config;
}

describe('fee model from the config', () => {
  const btc = anInstrument('BINANCE_PERP_BTC_USDT');

  it('keeps each instrument schedule under the instrument model', () => {
    const config = configWith('{ model: instrument }');
    const [spec] = specsWithFees([btc], config, config.backtest?.fees);
    expect(spec?.fees).toEqual(btc.fees);
  });

  it('replaces the schedules by flat rates, a fixed amount per fill and one per order', () => {
    const config = configWith(
      '{ model: flat, makerBps: 1, takerBps: 2.5, fixedPerFill: 0.01, fixedPerOrder: 0.35 }',
    );
    const [spec] = specsWithFees([btc], config, config.backtest?.fees);
    const fees = spec?.fees;
    expect(
      [fees?.maker, fees?.taker, fees?.fixedPerFill, fees?.fixedPerOrder].map((d) => d?.toFixed()),
    ).toEqual(['0.0001', '0.00025', '0.01', '0.35']);
  });

  it('charges no fixed amount per order unless the flat model names one', () => {
    const config = configWith('{ model: flat, makerBps: 1, takerBps: 2 }');
    const [spec] = specsWithFees([btc], config, config.backtest?.fees);
    expect(spec?.fees.fixedPerOrder).toBeUndefined();
    expect(spec?.fees.fixedPerFill.toFixed()).toBe('0');
  });
});
