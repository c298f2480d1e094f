import { type Dec, type InstrumentSpec, type OrderSide, settlesInCoins } from '../../core/model/index.ts';
import type { SimPosition } from './sim-position.ts';
import { credit, type SimState } from './sim-state.ts';

/*
 * Spot settlement. The spec describes a portfolio-margin venue and says nothing of how a SPOT or
 * MARGIN trade settles; the public venue docs list the business types and the asset fields
 * (balance, available, frozen, borrow) only. Keel's choice, as cash accounts do (NautilusTrader's
 * CASH account, Hummingbot, the exchanges' own spot wallets):
 * - a trade of an asset-settled instrument (crypto SPOT and MARGIN) moves assets: a BUY pays
 *   qty x price of the quote asset and receives qty of the base asset, a SELL the other way round;
 *   the fee is paid in the settle (quote) asset, as on every other instrument;
 * - it opens no margin position: no initial or maintenance margin, no liqPrice, no ADL rank, not
 *   closed by liquidation as a position (the liquidation sells held coins only to repay a loan,
 *   `loan-liquidation.ts`). The base asset held counts in equity at its coin value (the mark of a
 *   `{base}/{valuation coin}` instrument), as collateral for the rest of the portfolio;
 * - an order must be paid for with what the portfolio holds (`spot-balance-check.ts`): selling
 *   ETH needs ETH, so a short sale is a borrow (the loans of `loans.ts`) and then a sale, paying
 *   interest on the loan; MARGIN instruments trade the same way (no automatic borrowing);
 * - the Positions channel still reports a holding per sym (`SimState.holdings`): the net quantity
 *   the run's trades bought, less the loan interest charged in its base coin
 *   (`interest-holding.ts`), at its average price, with its unrealized PnL for information. So
 *   `netQty`, reduce-only orders and closing a position work on spot as on perpetuals. Base coins
 *   given in the starting balances are not part of it: selling them shows a negative holding (the
 *   trade list's short round trip), while the base balance shows what is owned.
 * Perpetuals and US equities keep the margin model of `margin.ts`.
 */

/**
 * Whether trades of an instrument settle in assets (crypto SPOT and MARGIN) rather than open a
 * margin position (perpetuals, US equities). See the model above.
 * @param spec - the instrument (undefined when unknown)
 * @returns true for crypto SPOT and MARGIN instruments
 */
export function isAssetSettled(spec: InstrumentSpec | undefined): boolean {
  return spec !== undefined && settlesInCoins(spec.id);
}

/**
 * Whether a sym's trades settle in assets ({@link isAssetSettled}).
 * @param state - the venue
 * @param sym - the symbol
 * @returns true for a known crypto SPOT or MARGIN sym
 */
export function isAssetSettledSym(state: SimState, sym: string): boolean {
  return isAssetSettled(state.opts.instruments.get(sym));
}

const spotRuns = new WeakMap<SimState['opts'], boolean>();

/**
 * Whether any instrument of the venue is asset-settled (worked out once per venue): a run on
 * perpetuals alone skips every spot bookkeeping.
 * @param state - the venue
 * @returns true when a crypto SPOT or MARGIN instrument is configured
 */
export function tradesSpot(state: SimState): boolean {
  let spot = spotRuns.get(state.opts);
  if (spot === undefined) {
    spot = [...state.opts.instruments.values()].some(isAssetSettled);
    spotRuns.set(state.opts, spot);
  }
  return spot;
}

/**
 * Where a sym's positions are kept: its holdings when it is asset-settled, else the margin positions.
 * @param state - the venue
 * @param sym - the symbol
 * @returns the map, keyed by `sym|positionSide`
 */
export function positionsOf(state: SimState, sym: string): Map<string, SimPosition> {
  return isAssetSettledSym(state, sym) ? state.holdings : state.positions;
}

/**
 * Every position record: the margin positions, then the spot holdings (what the Positions channel,
 * closes and the position-mode switch see; margin and liquidation read `state.positions` alone).
 * @param state - the venue
 * @returns the records, flat ones included
 */
export function everyPosition(state: SimState): SimPosition[] {
  return state.holdings.size === 0
    ? [...state.positions.values()]
    : [...state.positions.values(), ...state.holdings.values()];
}

/**
 * The coins a trade of an asset-settled instrument moves.
 * @param spec - a crypto SPOT or MARGIN instrument
 * @returns its base and quote coins (the quote also for a spec without a crypto id: its settle asset)
 */
export function tradedCoins(spec: InstrumentSpec): { readonly base: string; readonly quote: string } {
  return spec.id.kind === 'crypto'
    ? { base: spec.id.base, quote: spec.id.quote }
    : { base: spec.sym, quote: spec.settleAsset };
}

/**
 * Moves the assets of one fill of an asset-settled instrument (the fee is booked by the caller): a
 * BUY takes qty x contractSize x price of the quote coin and gives qty x contractSize of the base
 * coin; a SELL the other way round.
 * @param state - the venue
 * @param spec - the instrument
 * @param side - the fill's side
 * @param quantity - the fill's quantity (> 0)
 * @param price - the fill's price
 * @returns the coins it moved
 */
export function settleSpotFill(
  state: SimState,
  spec: InstrumentSpec,
  side: OrderSide,
  quantity: Dec,
  price: Dec,
): readonly string[] {
  const { base, quote } = tradedCoins(spec);
  const units = quantity.mul(spec.contractSize);
  const cost = units.mul(price);
  credit(state, base, side === 'BUY' ? units : units.neg());
  credit(state, quote, side === 'BUY' ? cost.neg() : cost);
  return [base, quote];
}
