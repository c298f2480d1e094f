import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../../config/loader/index.ts';
import { accountCurrencyOf } from '../../../config/schema/index.ts';
import { BACKTEST_YAML, replaceLine } from '../../kit/config-texts.ts';

/** A backtest config trading these instruments (YAML list items) from this starting cash. */
function backtestOf(instruments: string, cash: string) {
  const text = replaceLine(BACKTEST_YAML, '  - BINANCE_PERP_BTC_USDT', instruments).replace(
    '{ USDT: 1000 }',
    cash,
  );
  return parseConfigText(text, { file: 'bt.yaml', env: {} });
}

const PAPER_YAML = `mode: paper
instruments:
  - OKX_SPOT_ETH_USDT
strategies:
  - id: g
    use: grid
    params: { sym: OKX_SPOT_ETH_USDT }
paper:
  source: { kind: synthetic, seed: 1 }
  startingCash: { USDT: 1000, BTC: 1 }
`;

describe('starting cash of a backtest', () => {
  it('takes the base coin of a spot instrument of the run besides the account currency', () => {
    const result = backtestOf('  - OKX_SPOT_ETH_USDT', '{ USDT: 100000, ETH: 10 }');
    expect(result.ok ? [] : result.problems.map((p) => p.message)).toEqual([]);
    if (result.ok) {
      expect(result.config.backtest?.startingCash.ETH?.toFixed()).toBe('10');
      expect(accountCurrencyOf(result.config.backtest?.startingCash ?? {}, result.config.instruments)).toBe(
        'USDT',
      );
    }
  });

  it('finds the account currency wherever the coins come in the YAML', () => {
    const result = backtestOf('  - OKX_SPOT_ETH_USDT', '{ ETH: 10, USDT: 100000 }');
    expect(result.ok).toBe(true);
    if (result.ok)
      expect(accountCurrencyOf(result.config.backtest?.startingCash ?? {}, result.config.instruments)).toBe(
        'USDT',
      );
  });

  it('refuses a coin no spot or margin instrument of the run trades, naming backtest.startingCash, its line and the allowed coins', () => {
    const result = backtestOf('  - OKX_SPOT_ETH_USDT', '{ USDT: 100000, BTC: 1 }');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problems).toHaveLength(1);
      expect(result.problems[0]).toMatchObject({ path: ['backtest', 'startingCash'], line: 13 });
      expect(result.problems[0]?.message).toContain(
        'names BTC besides USDT, the account currency every instrument settles in: it may also hold the base coin of a spot or margin instrument of the run (ETH)',
      );
    }
  });

  it('refuses a base coin of a perpetual: a perpetual trades no coin', () => {
    const result = backtestOf('  - BINANCE_PERP_BTC_USDT', '{ USDT: 1000, BTC: 1 }');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problems[0]).toMatchObject({ path: ['backtest', 'startingCash'], line: 13 });
      expect(result.problems[0]?.message).toContain(
        'no instrument of the run is a spot or margin one, so it may hold no other coin',
      );
    }
  });
});

describe('starting cash of a paper run', () => {
  it('refuses a coin the paper venue could not value, as a backtest does', () => {
    const result = parseConfigText(PAPER_YAML, { file: 'paper.yaml', env: {} });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problems[0]).toMatchObject({ path: ['paper', 'startingCash'], line: 10 });
      expect(result.problems[0]?.message).toContain('names BTC besides USDT');
    }
    const eth = parseConfigText(PAPER_YAML.replace('BTC: 1', 'ETH: 1'), { file: 'paper.yaml', env: {} });
    expect(eth.ok ? [] : eth.problems.map((p) => p.message)).toEqual([]);
  });

  /** The paper config trading these instruments (YAML list items) from 1000 USDT. */
  function paperOf(instruments: string) {
    const text = replaceLine(PAPER_YAML, '  - OKX_SPOT_ETH_USDT', instruments).replace(
      '{ USDT: 1000, BTC: 1 }',
      '{ USDT: 1000 }',
    );
    return parseConfigText(text, { file: 'paper.yaml', env: {} });
  }

  it('refuses a US equity beside a USDT instrument on USDT cash, with the way out a backtest gives', () => {
    const mixed = paperOf('  - OKX_SPOT_ETH_USDT\n  - US_EQUITY_AAPL');
    expect(mixed.ok ? [] : mixed.problems.map((p) => [p.message, p.line])).toEqual([
      [
        "US_EQUITY_AAPL settles in USD, but the run's account is in USDT (paper.startingCash): a run keeps one account in one currency, so set overrides.settleAsset: USDT on it to count USD as USDT one for one, or run it apart with its cash in USD",
        4,
      ],
    ]);
    const overridden = paperOf(
      '  - OKX_SPOT_ETH_USDT\n  - { sym: US_EQUITY_AAPL, overrides: { settleAsset: USDT } }',
    );
    expect(overridden.ok ? [] : overridden.problems.map((p) => p.message)).toEqual([]);
  });

  it('says only what a mistyped sym lacks, suggesting the built-in one, not that it settles in another coin', () => {
    const typo = paperOf('  - OKX_SPOT_ETH_USDT\n  - OKX_SPOT_ETH_USD');
    expect(typo.ok ? [] : typo.problems.map((p) => p.message)).toEqual([
      'OKX_SPOT_ETH_USD has no built-in spec (did you mean OKX_SPOT_ETH_USDT? built-in: BINANCE_PERP_BTC_USDT, OKX_SPOT_ETH_USDT, US_EQUITY_AAPL), so give its tickSize and lotSize, e.g. { sym: OKX_SPOT_ETH_USD, overrides: { tickSize: 0.01, lotSize: 0.001, makerFee: 0.0002, takerFee: 0.0005 } }',
    ]);
    const other = paperOf('  - OKX_SPOT_ETH_USDT\n  - OKX_SPOT_SOL_USD');
    expect(other.ok ? [] : other.problems.map((p) => p.message)).toEqual([
      'OKX_SPOT_SOL_USD has no built-in spec (built-in: BINANCE_PERP_BTC_USDT, OKX_SPOT_ETH_USDT, US_EQUITY_AAPL), so give its tickSize and lotSize, e.g. { sym: OKX_SPOT_SOL_USD, overrides: { tickSize: 0.01, lotSize: 0.001, makerFee: 0.0002, takerFee: 0.0005 } }',
    ]);
    const specified = paperOf(
      '  - OKX_SPOT_ETH_USDT\n  - { sym: OKX_SPOT_SOL_USD, overrides: { tickSize: 0.01, lotSize: 0.01 } }',
    );
    expect(specified.ok ? [] : specified.problems.map((p) => p.message)).toEqual([
      expect.stringContaining("OKX_SPOT_SOL_USD settles in USD, but the run's account is in USDT"),
    ]);
  });

  it('takes US equities alone on USDT cash, which the paper venue counts one for one with USD', () => {
    const equities = paperOf('  - US_EQUITY_AAPL\n  - US_EQUITY_SPY');
    expect(equities.ok ? [] : equities.problems.map((p) => p.message)).toEqual([]);
  });
});
