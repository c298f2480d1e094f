import { asNumber, decimalOf } from '../../core/model/index.ts';
import { valuationSumOf } from './coin-valuation.ts';
import { liquidateIfBelowMaintenance } from './liquidation.ts';
import { estimateRisk, mayBeBelowMaintenance, mayBeBelowMaintenanceN } from './margin-watch.ts';
import type { SymMarket } from './market-state.ts';
import { legMarkOf, openLegsOf } from './open-legs.ts';
import type { SimState } from './sim-state.ts';

/*
 * Liquidation inside a bar. Bars carry no mark price, and without a MARK_PRICE channel the sim
 * marks positions at the last price (market-state.ts), so the path a bar is replayed along moves
 * the mark too: the account is liquidated where the path first takes equity below maintenance
 * margin, not only at the close (Keel's choice). A recording with a mark channel keeps its marks:
 * margin is then checked at them, as on every other fill model.
 *
 * Equity minus maintenance margin is linear in one sym's price while positions do not change, so
 * its lowest value over a stretch of the path is at one of the ends: two number estimates per
 * bar (at its low and its high) tell whether a liquidation is possible at all, and only then is
 * the crossing located and confirmed in Decimal.
 */

/** The number estimate of the account's risk with the sym's last price moved to `price`. */
function mayBeBelowAt(state: SimState, market: SymMarket, price: number): boolean {
  const last = market.last;
  market.last = price;
  const risk = estimateRisk(state);
  market.last = last;
  return !Number.isNaN(risk.equity) && mayBeBelowMaintenance(risk);
}

/** Equity minus maintenance margin on numbers with the sym's last price at `price`. */
function headroomAt(state: SimState, market: SymMarket, price: number): number {
  const last = market.last;
  market.last = price;
  const risk = estimateRisk(state);
  market.last = last;
  return risk.equity - risk.maintenance;
}

/**
 * Whether equity may be below maintenance margin after the sym's last price moved by `move`, from
 * the figures at that price and how they move with it (the estimate's tolerance of
 * {@link mayBeBelowMaintenance}): equity minus maintenance margin is linear in the price.
 */
function mayBeBelowAfterMove(
  equity: number,
  equitySlope: number,
  maintenance: number,
  maintenanceSlope: number,
  move: number,
): boolean {
  return mayBeBelowMaintenanceN(equity + equitySlope * move, maintenance + maintenanceSlope * move);
}

/**
 * Whether the sym's price anywhere between `low` and `high` may take the account below
 * maintenance margin (a screen on numbers with a small margin of error, no Decimal work).
 * @param state - the venue
 * @param market - the sym's market, its last price moved along the bar's path
 * @param sym - the symbol
 * @param low - the bar's low
 * @param high - the bar's high
 * @returns false when no price in the range can trigger a liquidation, or the sym has a mark price
 */
export function mayLiquidateWithin(
  state: SimState,
  market: SymMarket,
  sym: string,
  low: number,
  high: number,
): boolean {
  if ((state.positions.size === 0 && state.loans.size === 0) || !Number.isNaN(market.mark)) return false;
  // The estimate of `estimateRisk` as lines in the sym's last price, in one pass and in locals (this
  // runs on every bar while a position is open): the common case of balances in valuation coins
  // and no loans; otherwise a coin valued by the sym's price bends the line, and both ends are
  // estimated in full.
  if (state.loans.size > 0) return mayBeBelowAt(state, market, low) || mayBeBelowAt(state, market, high);
  const balances = valuationSumOf(state);
  if (!balances.all) return mayBeBelowAt(state, market, low) || mayBeBelowAt(state, market, high);
  let equity = balances.value;
  let equitySlope = 0;
  let maintenance = 0;
  let maintenanceSlope = 0;
  const legs = openLegsOf(state);
  const open = legs.length > 0;
  for (const leg of legs) {
    const mark = legMarkOf(state, leg);
    if (Number.isNaN(mark)) continue;
    const position = leg.position;
    const size = position.qtyN * position.contractSizeN;
    const rate = Math.abs(size) * position.mmrN;
    equity += size * (mark - position.avgN);
    maintenance += rate * mark;
    if (position.sym === sym) {
      equitySlope += size;
      maintenanceSlope += rate;
    }
  }
  if (!open || Number.isNaN(equity)) return false;
  const price = market.last;
  return (
    mayBeBelowAfterMove(equity, equitySlope, maintenance, maintenanceSlope, low - price) ||
    mayBeBelowAfterMove(equity, equitySlope, maintenance, maintenanceSlope, high - price)
  );
}

/**
 * Where the account may first fall below maintenance margin as the price moves from `from` to
 * `to`: `from` when it may be below already, else the first tick past the crossing toward `to`
 * (the first price a trade on the venue's grid could print there; Keel's choice), at most `to`.
 * @param state - the venue
 * @param market - the sym's market
 * @param sym - the symbol (its tick size)
 * @param from - the current price on the path
 * @param to - the end of the segment
 * @returns the price, or NaN when the estimate stays above maintenance margin over the stretch
 */
export function liquidationPointOn(
  state: SimState,
  market: SymMarket,
  sym: string,
  from: number,
  to: number,
): number {
  if (!mayBeBelowAt(state, market, to)) return Number.NaN;
  const start = headroomAt(state, market, from);
  if (!(start > 0) || from === to) return from;
  const end = headroomAt(state, market, to);
  return start > end ? tickPast(state, sym, from + ((to - from) * start) / (start - end), to) : to;
}

/**
 * The first price on the sym's tick grid strictly past `price` in the direction of `to`, at most
 * `to` (`to` itself when the sym has no tick size).
 * @param state - the venue
 * @param sym - the symbol
 * @param price - a price between the segment's ends
 * @param to - the end of the segment
 * @returns the price
 */
export function tickPast(state: SimState, sym: string, price: number, to: number): number {
  if (price === to) return to;
  const tick = state.opts.instruments.get(sym)?.tickSize;
  if (!tick?.gt(0)) return to;
  const steps = decimalOf(price).div(tick);
  const down = to < price;
  const point = asNumber((down ? steps.ceil().minus(1) : steps.floor().plus(1)).mul(tick));
  return down ? Math.max(point, to) : Math.min(point, to);
}

/**
 * Liquidates when the account is below maintenance margin at the sym's current last price
 * (checked in Decimal), as the margin watch does after an event.
 * @param state - the venue
 * @returns true when a liquidation ran
 */
export function liquidateInBar(state: SimState): boolean {
  if (!liquidateIfBelowMaintenance(state)) return false;
  state.reportedStatus = 'NORMAL';
  return true;
}
