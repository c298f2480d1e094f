import type { Account, Asset, Dec, PositionSide } from '../model/index.ts';
import { decimalOfComputed, ZERO } from '../model/index.ts';
import type { Portfolio } from '../portfolio/index.ts';
import type { EquityEstimate } from './equity-estimate.ts';
import { type LatestMarketData, referencePriceOf } from './market-prices.ts';
import type { MarkSource, VenueEquityMarks } from './venue-equity-marks.ts';

/** What the kernel's equity and exposure read: the kernel state. */
export interface EquitySource extends MarkSource, LatestMarketData {
  /** Keel's own Decimal ledger, when the kernel keeps one. */
  readonly portfolio?: Portfolio | undefined;
  /** The venue's latest account report. */
  readonly account: Account | undefined;
  /** The venue's latest asset reports by coin. */
  readonly assets: ReadonlyMap<string, Asset>;
  /** Signed quantity of a position leg: the venue's report plus the fills booked since. */
  positionQty(sym: string, positionSide: PositionSide): Dec;
}

/**
 * Portfolio equity: Keel's ledger marked at the latest prices when the kernel has one, else
 * the venue's latest account report (else the sum of its asset equity) with open positions
 * marked to the latest price since that report ({@link VenueEquityMarks}).
 * @param state - the kernel state
 * @param venueMarks - the state's marks of the venue's equity
 * @returns equity in the settlement currency
 */
export function equityOf(state: EquitySource, venueMarks: VenueEquityMarks): Dec {
  if (state.portfolio !== undefined) {
    markPortfolio(state, state.portfolio);
    return state.portfolio.equity();
  }
  if (state.account !== undefined) return venueMarks.marked(state.account.equity, state);
  if (state.assets.size === 0) return ZERO;
  let total = ZERO;
  for (const asset of state.assets.values()) total = total.add(asset.equity);
  return venueMarks.marked(total, state);
}

/**
 * {@link equityOf} on numbers, where it is the venue's account report marked to the latest
 * prices (see {@link VenueEquityMarks.estimate}).
 * @param state - the kernel state
 * @param venueMarks - the state's marks of the venue's equity
 * @returns the estimate, or undefined when equity comes from Keel's ledger or asset reports
 */
export function equityEstimateOf(
  state: EquitySource,
  venueMarks: VenueEquityMarks,
): EquityEstimate | undefined {
  if (state.portfolio !== undefined || state.account === undefined) return undefined;
  return venueMarks.estimate(state.account.equity, state);
}

/**
 * Gross exposure (sum of |position value|): from Keel's ledger when the kernel has one, else
 * each leg the venue reported, |quantity| * contractSize * the venue's mark as far as Keel has
 * seen it (`venueMarkPrice`: mark, else last trade or closed bar, else quote mid), so a position
 * is valued at the price now, not at the price of its last report (which comes only with a fill
 * or a margin change); a leg with no price yet at its reported positionValue.
 * @param state - the kernel state
 * @returns the exposure in the settlement currency
 */
export function grossExposureOf(state: EquitySource): Dec {
  if (state.portfolio !== undefined) {
    markPortfolio(state, state.portfolio);
    return state.portfolio.grossExposure();
  }
  let total = ZERO;
  for (const position of state.positions.values()) {
    const spec = state.instrument(position.sym);
    const price = state.venueMarkPrice(position.sym);
    if (spec === undefined || price === undefined) {
      total = total.add(position.positionValue.abs());
      continue;
    }
    const qty = state.positionQty(position.sym, position.positionSide);
    if (!qty.isZero()) total = total.add(qty.abs().mul(spec.contractSize).mul(decimalOfComputed(price)));
  }
  return total;
}

/**
 * Marks each held position at the venue's mark price, else the reference price (so on
 * bar-only data at the latest bar close). Marks are pushed lazily, only for syms the ledger
 * holds, so market events cost nothing here.
 */
function markPortfolio(state: EquitySource, portfolio: Portfolio): void {
  for (const position of portfolio.positions()) {
    const price = state.marks.get(position.sym)?.markPrice ?? referencePriceOf(state, position.sym);
    if (price !== undefined) portfolio.mark(position.sym, price);
  }
}
