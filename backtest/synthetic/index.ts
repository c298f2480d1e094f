/**
 * SYNTHETIC market data: a seeded generator of BBO, TRADE and 1-minute KLINE pushes in the venue's
 * wire shapes, the specs of the instruments it simulates, and the example session's options.
 * @packageDocumentation
 */
export { EXAMPLE_SESSION_FILE, EXAMPLE_SESSION_OPTIONS } from './example-session.ts';
export type { GarchParams } from './garch-volatility.ts';
export { GarchVolatility, normalDraw } from './garch-volatility.ts';
export type { SyntheticMarketParams, WireSink } from './instrument-simulator.ts';
export { InstrumentSimulator } from './instrument-simulator.ts';
export {
  SYNTHETIC_AAPL,
  SYNTHETIC_BTC_PERP,
  SYNTHETIC_ETH_SPOT,
  SYNTHETIC_INSTRUMENTS,
} from './instruments.ts';
export { formatScaled } from './scaled-integer.ts';
export { SYNTHETIC_MARKETS } from './synthetic-markets.ts';
export type { SyntheticSessionOptions, SyntheticSessionSummary } from './synthetic-session.ts';
export { writeSyntheticSession } from './synthetic-session.ts';
export type { TradingHours } from './trading-hours.ts';
export { usRegularHours } from './trading-hours.ts';
