import { D, type InstrumentSpec, parseSym } from '../../core/model/index.ts';

/**
 * Instrument specs of the synthetic sessions. SYNTHETIC: plausible values chosen by Keel for
 * tests, examples and backtests on generated data, not the venue's symbol info. Live runs must
 * load specs from `GET /api/v1/trading/sym/info`.
 */

/** SYNTHETIC spec of the BTC/USDT perpetual on Binance (quantity in BTC, contract size 1). */
export const SYNTHETIC_BTC_PERP: InstrumentSpec = {
  sym: 'BINANCE_PERP_BTC_USDT',
  id: parseSym('BINANCE_PERP_BTC_USDT'),
  state: 'TRADING',
  pricePrecision: 1,
  qtyPrecision: 3,
  tickSize: new D('0.1'),
  lotSize: new D('0.001'),
  minSize: new D('0.001'),
  minNotional: new D('5'),
  maxLimitSize: new D('1000'),
  maxMarketSize: new D('120'),
  maxNumOrders: 200,
  contractSize: new D('1'),
  defaultLeverage: new D('20'),
  liquidationFee: new D('0.0125'),
  settleAsset: 'USDT',
  fees: { maker: new D('0.0002'), taker: new D('0.0005'), markup: new D('0'), fixedPerFill: new D('0') },
};

/** SYNTHETIC spec of ETH/USDT spot on OKX. */
export const SYNTHETIC_ETH_SPOT: InstrumentSpec = {
  sym: 'OKX_SPOT_ETH_USDT',
  id: parseSym('OKX_SPOT_ETH_USDT'),
  state: 'TRADING',
  pricePrecision: 2,
  qtyPrecision: 4,
  tickSize: new D('0.01'),
  lotSize: new D('0.0001'),
  minSize: new D('0.0001'),
  minNotional: new D('1'),
  maxLimitSize: new D('10000'),
  maxMarketSize: new D('1000'),
  maxNumOrders: 200,
  contractSize: new D('1'),
  defaultLeverage: new D('1'),
  liquidationFee: new D('0'),
  settleAsset: 'USDT',
  fees: { maker: new D('0.0008'), taker: new D('0.001'), markup: new D('0'), fixedPerFill: new D('0') },
};

/** SYNTHETIC spec of Apple common stock (Keel's sym `US_EQUITY_AAPL`), whole shares. */
export const SYNTHETIC_AAPL: InstrumentSpec = {
  sym: 'US_EQUITY_AAPL',
  id: parseSym('US_EQUITY_AAPL'),
  state: 'TRADING',
  pricePrecision: 2,
  qtyPrecision: 0,
  tickSize: new D('0.01'),
  lotSize: new D('1'),
  minSize: new D('1'),
  minNotional: new D('1'),
  maxLimitSize: new D('100000'),
  maxMarketSize: new D('10000'),
  maxNumOrders: 200,
  contractSize: new D('1'),
  defaultLeverage: new D('1'),
  liquidationFee: new D('0'),
  settleAsset: 'USD',
  fees: {
    maker: new D('0'),
    taker: new D('0'),
    markup: new D('0'),
    fixedPerFill: new D('0'),
    fixedPerOrder: new D('0.35'),
  },
};

/** The SYNTHETIC specs of every instrument the generator knows, by sym. */
export const SYNTHETIC_INSTRUMENTS: Readonly<Record<string, InstrumentSpec>> = {
  [SYNTHETIC_BTC_PERP.sym]: SYNTHETIC_BTC_PERP,
  [SYNTHETIC_ETH_SPOT.sym]: SYNTHETIC_ETH_SPOT,
  [SYNTHETIC_AAPL.sym]: SYNTHETIC_AAPL,
};
