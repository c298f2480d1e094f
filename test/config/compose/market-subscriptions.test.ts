import { describe, expect, it } from 'vitest';
import { sessionSubscriptions } from '../../../config/compose/market-subscriptions.ts';
import { anEthSpot, anInstrument } from '../../kit/instrument-builders.ts';

describe('the market data a session subscribes to', () => {
  it('takes BBO, trades and 1m bars of every instrument, and the mark price of perpetuals only', () => {
    const subscriptions = sessionSubscriptions([anInstrument('BINANCE_PERP_BTC_USDT'), anEthSpot()]);
    expect(subscriptions.map((s) => `${s.channel}${s.interval ? ` ${s.interval}` : ''} ${s.sym}`)).toEqual([
      'BBO BINANCE_PERP_BTC_USDT',
      'TRADE BINANCE_PERP_BTC_USDT',
      'KLINE 1m BINANCE_PERP_BTC_USDT',
      'MARK_PRICE BINANCE_PERP_BTC_USDT',
      'BBO OKX_SPOT_ETH_USDT',
      'TRADE OKX_SPOT_ETH_USDT',
      'KLINE 1m OKX_SPOT_ETH_USDT',
    ]);
  });
});
