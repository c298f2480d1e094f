/**
 * Portfolio: positions per sym and side, average price, realized and unrealized PnL, fees,
 * cash, equity and its time series, all in Decimal.
 * @packageDocumentation
 */
export type { PortfolioFill, PortfolioOptions } from './portfolio.ts';
export { Portfolio } from './portfolio.ts';
export type { PortfolioPosition } from './portfolio-position.ts';
export type { LegFillResult, PositionLeg } from './position-leg.ts';
export { applyFillToLeg, FLAT_LEG } from './position-leg.ts';
