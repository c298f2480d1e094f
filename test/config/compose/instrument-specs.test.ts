import { describe, expect, it } from 'vitest';
import {
  defaultedSpecNotes,
  ignoredLeverageWarnings,
  instrumentSpecsOf,
} from '../../../config/compose/instrument-specs.ts';
import { parseConfigText } from '../../../config/loader/index.ts';
import type { KeelConfig } from '../../../config/schema/index.ts';
import { BACKTEST_YAML, LIVE_YAML, replaceLine } from '../../kit/config-texts.ts';

/** The validated config of a backtest trading these instrument entries (YAML list items). */
function parsed(instruments: string, base = BACKTEST_YAML) {
  const text = replaceLine(base, '  - BINANCE_PERP_BTC_USDT', instruments);
  return parseConfigText(text, { file: 'bt.yaml', env: { T_KEY: 'k', T_SECRET: 's' } });
}

/** A live config listing its instruments one per line, so entries of any settle asset parse. */
const LIVE_LIST_YAML = LIVE_YAML.replace(
  'instruments: [BINANCE_PERP_BTC_USDT]',
  'instruments:\n  - BINANCE_PERP_BTC_USDT',
);

function instrumentsOf(instruments: string): KeelConfig['instruments'] {
  const result = parsed(instruments, LIVE_LIST_YAML);
  if (!result.ok) throw new Error(result.problems.map((p) => p.message).join('; '));
  return result.config.instruments;
}

describe('instrument specs of a backtest or paper run', () => {
  it("keeps a built-in sym's spec, with the config's overrides", () => {
    const [btc] = instrumentSpecsOf(
      instrumentsOf('  - { sym: BINANCE_PERP_BTC_USDT, overrides: { takerFee: 0.0004 } }'),
    );
    expect(btc?.tickSize.toFixed()).toBe('0.1');
    expect(btc?.fees.taker.toFixed()).toBe('0.0004');
    expect(btc?.fees.maker.toFixed()).toBe('0.0002');
  });

  it('gives a tickSize / lotSize override its own decimal places as pricePrecision / qtyPrecision, unless those are overridden too', () => {
    const [btc, eth] = instrumentSpecsOf(
      instrumentsOf(
        '  - { sym: BINANCE_PERP_BTC_USDT, overrides: { tickSize: 0.01, lotSize: 0.00001, minSize: 0.00001 } }\n' +
          '  - { sym: BINANCE_PERP_SOL_USDT, overrides: { tickSize: 0.001, lotSize: 1, pricePrecision: 4, qtyPrecision: 2 } }',
      ),
    );
    expect(btc?.tickSize.toFixed()).toBe('0.01');
    expect([btc?.pricePrecision, btc?.qtyPrecision]).toEqual([2, 5]);
    expect([eth?.pricePrecision, eth?.qtyPrecision]).toEqual([4, 2]);
    const [kept] = instrumentSpecsOf(
      instrumentsOf('  - { sym: BINANCE_PERP_BTC_USDT, overrides: { takerFee: 0.0004 } }'),
    );
    expect([kept?.pricePrecision, kept?.qtyPrecision]).toEqual([1, 3]);
  });

  it('gives any US equity whole shares on a cent tick in USD without leverage or fees, unless overridden', () => {
    const instruments = instrumentsOf(
      '  - US_EQUITY_SPY\n  - { sym: US_EQUITY_MSFT, overrides: { fixedFeePerFill: 0.35, fixedFeePerOrder: 1 } }',
    );
    const [spy, msft] = instrumentSpecsOf(instruments);
    expect(spy).toMatchObject({
      sym: 'US_EQUITY_SPY',
      settleAsset: 'USD',
      pricePrecision: 2,
      qtyPrecision: 0,
    });
    expect(
      [spy?.tickSize, spy?.lotSize, spy?.minSize, spy?.defaultLeverage].map((d) => d?.toFixed()),
    ).toEqual(['0.01', '1', '1', '1']);
    expect([spy?.fees.maker, spy?.fees.taker, spy?.fees.fixedPerFill].map((d) => d?.toFixed())).toEqual([
      '0',
      '0',
      '0',
    ]);
    expect(msft?.fees.fixedPerFill.toFixed()).toBe('0.35');
    expect(msft?.fees.fixedPerOrder?.toFixed()).toBe('1');
    expect(spy?.fees.fixedPerOrder).toBeUndefined();
  });

  it("builds a crypto sym's spec around the tick and lot the config gives: settled in the quote, perpetuals leveraged", () => {
    const [sol, doge] = instrumentSpecsOf(
      instrumentsOf(
        '  - { sym: BINANCE_PERP_SOL_USDT, overrides: { tickSize: 0.01, lotSize: 0.1 } }\n' +
          '  - { sym: OKX_SPOT_DOGE_USDC, overrides: { tickSize: 0.00001, lotSize: 1, makerFee: 0.0008 } }',
      ),
    );
    expect(sol).toMatchObject({ settleAsset: 'USDT', pricePrecision: 2, qtyPrecision: 1 });
    expect([sol?.minSize, sol?.defaultLeverage, sol?.liquidationFee].map((d) => d?.toFixed())).toEqual([
      '0.1',
      '20',
      '0.0125',
    ]);
    expect(doge).toMatchObject({ settleAsset: 'USDC', pricePrecision: 5, qtyPrecision: 0 });
    expect([doge?.defaultLeverage, doge?.fees.maker].map((d) => d?.toFixed())).toEqual(['1', '0.0008']);
  });

  it('refuses a crypto sym with neither a built-in spec nor a tick and lot, naming the entry and its line', () => {
    const result = parsed('  - { sym: BINANCE_SPOT_SOL_USDT, overrides: { tickSize: 0.01 } }');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problems[0]).toMatchObject({ path: ['instruments', 0], line: 3 });
      expect(result.problems[0]?.message).toContain('BINANCE_SPOT_SOL_USDT has no built-in spec');
      expect(result.problems[0]?.message).toContain('give its tickSize and lotSize');
    }
    const live = parsed('  - BINANCE_SPOT_SOL_USDT', LIVE_LIST_YAML);
    expect(live.ok).toBe(true);
    expect(() => instrumentSpecsOf([{ sym: 'BINANCE_SPOT_SOL_USDT', overrides: {} }])).toThrow(
      /instrument BINANCE_SPOT_SOL_USDT has no built-in spec .* give its tickSize and lotSize/,
    );
  });

  it('refuses a backtest whose cash holds another coin than its currency and spot base coins, or is in another asset than an instrument settles in', () => {
    const twoCoins = parseConfigText(BACKTEST_YAML.replace('{ USDT: 1000 }', '{ USDT: 1000, USD: 500 }'), {
      file: 'bt.yaml',
      env: {},
    });
    expect(twoCoins.ok).toBe(false);
    if (!twoCoins.ok) {
      expect(twoCoins.problems[0]).toMatchObject({ path: ['backtest', 'startingCash'], line: 13 });
      expect(twoCoins.problems[0]?.message).toContain(
        'names USD besides USDT, the account currency every instrument settles in',
      );
    }
    const equity = parsed('  - BINANCE_PERP_BTC_USDT\n  - US_EQUITY_SPY');
    expect(equity.ok).toBe(false);
    if (!equity.ok) {
      expect(equity.problems.map((p) => [p.path, p.line])).toEqual([[['instruments', 1], 4]]);
      expect(equity.problems[0]?.message).toContain(
        "US_EQUITY_SPY settles in USD, but the run's account is in USDT (backtest.startingCash): a run keeps one account in one currency, so set overrides.settleAsset: USDT on it",
      );
    }
    // Cash in both settle assets gets the same advice, not an order to drop the USD.
    const bothCash = parseConfigText(
      BACKTEST_YAML.replace(
        '  - BINANCE_PERP_BTC_USDT',
        '  - BINANCE_PERP_BTC_USDT\n  - US_EQUITY_SPY',
      ).replace('{ USDT: 1000 }', '{ USDT: 1000, USD: 500 }'),
      { file: 'bt.yaml', env: {} },
    );
    expect(bothCash.ok).toBe(false);
    if (!bothCash.ok) {
      expect(bothCash.problems.map((p) => p.path)).toEqual([['instruments', 1]]);
      expect(bothCash.problems[0]?.message).toContain('set overrides.settleAsset: USDT on it');
    }
    expect(parsed('  - { sym: US_EQUITY_SPY, overrides: { settleAsset: USDT } }').ok).toBe(true);
  });

  it("states every defaulted spec in the report's assumptions, and nothing for built-in syms", () => {
    const instruments = instrumentsOf('  - BINANCE_PERP_BTC_USDT\n  - US_EQUITY_SPY');
    expect(defaultedSpecNotes(instrumentSpecsOf(instruments))).toEqual([
      "US_EQUITY_SPY has no built-in spec: Keel's defaults for its kind with the config's overrides, " +
        'tick 0.01, lot 1, minimum 1, settled in USD, leverage 1, fees maker 0 / taker 0 of notional.',
    ]);
  });

  it("states the leverage the simulated venue trades a defaulted equity or spot sym at (1), not the config's override", () => {
    const instruments = instrumentsOf(
      '  - { sym: US_EQUITY_SPY, overrides: { defaultLeverage: 4 } }\n' +
        '  - { sym: OKX_SPOT_SOL_USDT, overrides: { tickSize: 0.01, lotSize: 0.1, defaultLeverage: 3 } }',
    );
    expect(defaultedSpecNotes(instrumentSpecsOf(instruments))).toEqual([
      "US_EQUITY_SPY has no built-in spec: Keel's defaults for its kind with the config's overrides, " +
        'tick 0.01, lot 1, minimum 1, settled in USD, leverage 1, fees maker 0 / taker 0 of notional.',
      "OKX_SPOT_SOL_USDT has no built-in spec: Keel's defaults for its kind with the config's overrides, " +
        'tick 0.01, lot 0.1, minimum 0.1, settled in USDT, leverage 1, fees maker 0 / taker 0 of notional.',
    ]);
  });

  it('warns, with where it was written, of a defaultLeverage override on an equity or spot sym, which trades at 1x', () => {
    const result = parsed(
      '  - { sym: BINANCE_PERP_BTC_USDT, overrides: { defaultLeverage: 5 } }\n' +
        '  - { sym: OKX_SPOT_ETH_USDT, overrides: { defaultLeverage: 3 } }\n' +
        '  - { sym: US_EQUITY_SPY, overrides: { settleAsset: USDT, defaultLeverage: 2 } }\n' +
        '  - { sym: US_EQUITY_MSFT, overrides: { settleAsset: USDT } }',
    );
    if (!result.ok) throw new Error(result.problems.map((p) => p.message).join('; '));
    expect(ignoredLeverageWarnings(result.config, result.source)).toEqual([
      'instruments[1].overrides.defaultLeverage does nothing: OKX_SPOT_ETH_USDT is crypto SPOT, which backtests and paper runs trade at 1x (bt.yaml:4:44)',
      'instruments[2].overrides.defaultLeverage does nothing: US_EQUITY_SPY is a US equity, which backtests and paper runs trade at 1x (bt.yaml:5:59)',
    ]);
  });
});
