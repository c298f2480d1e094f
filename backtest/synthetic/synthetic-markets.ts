import type { SyntheticMarketParams } from './instrument-simulator.ts';
import { usRegularHours } from './trading-hours.ts';

/**
 * SYNTHETIC market behaviour of the three instruments of `instruments.ts`: start prices, event
 * rates and sizes are plausible round numbers chosen by Keel, not measurements. Grids match the
 * specs (BTC tick 0.1 lot 0.001; ETH tick 0.01 lot 0.0001; AAPL tick 0.01 lot 1).
 */
export const SYNTHETIC_MARKETS: readonly SyntheticMarketParams[] = [
  {
    sym: 'BINANCE_PERP_BTC_USDT',
    priceDecimals: 1,
    qtyDecimals: 3,
    startPrice: 95_000,
    meanEventMs: 120,
    tradeShare: 0.35,
    medianTouchLots: 1_500,
    medianTradeLots: 40,
    garch: { annualVol: 0.55, alpha: 0.03, beta: 0.968 },
  },
  {
    sym: 'OKX_SPOT_ETH_USDT',
    priceDecimals: 2,
    qtyDecimals: 4,
    startPrice: 3_400,
    meanEventMs: 250,
    tradeShare: 0.3,
    medianTouchLots: 150_000,
    medianTradeLots: 4_000,
    garch: { annualVol: 0.7, alpha: 0.03, beta: 0.968 },
  },
  {
    sym: 'US_EQUITY_AAPL',
    priceDecimals: 2,
    qtyDecimals: 0,
    startPrice: 190,
    meanEventMs: 400,
    tradeShare: 0.3,
    medianTouchLots: 300,
    medianTradeLots: 100,
    garch: { annualVol: 0.25, alpha: 0.04, beta: 0.955 },
    tradingHours: usRegularHours(),
  },
];
