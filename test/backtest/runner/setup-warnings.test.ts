import { describe, expect, it } from 'vitest';
import { unlistedSymWarnings } from '../../../backtest/runner/index.ts';

const SPY = 'US_EQUITY_SPY';
const QQQ = 'US_EQUITY_QQQ';
const BTC = 'BINANCE_PERP_BTC_USDT';

const unlisted = (sym: string, listed: string) =>
  `strategy sma names ${sym} in its params, but it is not one of the run's instruments (${listed}): the strategy receives none of its market data and the risk gate denies every order on it (instrumentKnown); list it under instruments`;

describe('setup warnings: syms in params that are not instruments', () => {
  it('warns of an equity sym in the params when the run lists another (orders on it can only be denied)', () => {
    expect(unlistedSymWarnings([{ id: 'sma', params: { sym: SPY, fast: 2 } }], [QQQ])).toEqual([
      unlisted(SPY, QQQ),
    ]);
  });

  it('finds crypto syms nested in arrays and objects, once each', () => {
    const params = { legs: [{ sym: BTC }, { sym: BTC }], hedge: { sym: 'OKX_SPOT_ETH_USDT' } };
    expect(unlistedSymWarnings([{ id: 'sma', params }], [])).toEqual([
      unlisted(BTC, 'none'),
      unlisted('OKX_SPOT_ETH_USDT', 'none'),
    ]);
  });

  it('says nothing of listed syms or of texts that are not of the sym form', () => {
    const params = {
      sym: SPY,
      interval: '1d',
      side: 'BUY',
      tag: 'SPY',
      note: 'US_EQUITY_',
      mode: 'KRAKEN_SPOT_BTC_USD',
    };
    expect(unlistedSymWarnings([{ id: 'sma', params }], [SPY])).toEqual([]);
    expect(unlistedSymWarnings([{ id: 'none' }], [SPY])).toEqual([]);
  });
});
