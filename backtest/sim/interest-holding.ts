import type { Dec, InstrumentSpec, PositionSide } from '../../core/model/index.ts';
import { asNumber, D, isBelowZero, shareOf, ZERO } from '../../core/model/index.ts';
import { positionFor } from './fills.ts';
import { positionKeyFor } from './margin.ts';
import { markDecimalOf } from './market-state.ts';
import { publishPosition } from './publish.ts';
import { reducibleQty, type SimPosition } from './sim-position.ts';
import type { SimLoan, SimState } from './sim-state.ts';
import { isAssetSettled, tradedCoins, tradesSpot } from './spot-holdings.ts';

/*
 * Loan interest charged in a coin that a spot sym trades as its base (ETH lent for a short sale)
 * leaves the account as that coin, without a trade. The holding the sym reports counts the run's
 * trades, so it must lose that coin too, or it would claim coins the interest took: sold 5
 * borrowed ETH, 0.0015 ETH of interest, bought back 5.002 and repaid 5 leaves 0.0005 ETH, not the
 * 0.002 the trades alone add up to, and an end-of-run close of the holding would sell coins the
 * balance does not have. Keel's choice (the spec says nothing of spot holdings): the interest is
 * taken out of the holding as a sale without proceeds would be, at the holding's average price
 * (a flat one opens at the mark), so the holding's PnL stays its trades' and the interest is its
 * own cash flow (DEDUCT_INTEREST). The coin's holdings thus add up to its balance less the
 * starting coins and its loans (while no instrument quotes prices in the coin: those trades move
 * it outside any holding).
 */

/**
 * The sym whose holding pays a loan's interest: one trading the loan's coin as its base, one that
 * holds some already (where the coin was traded) before one that holds none, then the loan's
 * exchange first, then by sym.
 */
function payingSym(state: SimState, loan: SimLoan): InstrumentSpec | undefined {
  const rank = (spec: InstrumentSpec) =>
    (holds(state, spec.sym) ? 0 : 2) +
    (spec.id.kind === 'crypto' && spec.id.exchangeType === loan.exchange ? 0 : 1);
  const candidates = [...state.opts.instruments.values()].filter(
    (spec) => isAssetSettled(spec) && tradedCoins(spec).base === loan.coin,
  );
  return candidates.sort((a, b) => rank(a) - rank(b) || (a.sym < b.sym ? -1 : 1))[0];
}

function holds(state: SimState, sym: string): boolean {
  for (const holding of state.holdings.values())
    if (holding.sym === sym && !holding.qty.isZero()) return true;
  return false;
}

/**
 * The legs the interest comes out of: NONE in NET mode; in BOTH mode the LONG leg as far as it
 * holds, the rest added to the SHORT leg, as a SELL order's fills would book.
 */
function legsOf(state: SimState, sym: string, qty: Dec): [PositionSide, Dec][] {
  if (state.positionMode === 'NET') return [['NONE', qty]];
  const long = state.holdings.get(positionKeyFor(state, sym, 'LONG'));
  const reduced = D.min(reducibleQty(long?.qty ?? ZERO, 'SELL'), qty);
  const legs: [PositionSide, Dec][] = [];
  if (reduced.gt(0)) legs.push(['LONG', reduced]);
  if (qty.gt(reduced)) legs.push(['SHORT', qty.minus(reduced)]);
  return legs;
}

/**
 * Takes `qty` out of a holding as a sale without proceeds would: a long keeps its average price, a
 * short grows at its average price, and what opens from flat (or past a long) opens at the sym's
 * mark (0 before the sym has a price), so no PnL is realized and none appears.
 */
function spend(state: SimState, holding: SimPosition, qty: Dec): void {
  const before = holding.qty;
  const after = before.minus(qty);
  if (before.isZero()) holding.createAt = state.now;
  if (after.isZero()) {
    holding.avgPrice = ZERO;
    holding.cost = ZERO;
  } else if (!isBelowZero(before) && isBelowZero(after)) {
    const market = state.markets.get(holding.sym);
    holding.avgPrice = (market ? markDecimalOf(market) : undefined) ?? ZERO;
    holding.cost = holding.avgPrice.mul(after.abs());
  } else {
    // The cost scales with the qty (a long's share leaves with the part spent, a short grows by
    // its own), so the average price stays and the cost stays exact.
    const share = shareOf(holding.cost, qty, before.abs());
    holding.cost = isBelowZero(before) ? holding.cost.plus(share) : holding.cost.minus(share);
  }
  holding.qty = after;
  holding.qtyN = asNumber(after);
  holding.avgN = asNumber(holding.avgPrice);
}

/**
 * Takes interest charged in a loan's coin out of the spot holding that trades the coin (see the
 * model above), tells `onHoldingSpent` and reports the holding on the Positions channel. Nothing
 * happens when no spot instrument trades the coin as its base (a USDT loan).
 * @param state - the venue
 * @param loan - the loan charged
 * @param charge - the interest, in the loan's coin (> 0)
 */
export function takeInterestFromHolding(state: SimState, loan: SimLoan, charge: Dec): void {
  if (!tradesSpot(state)) return;
  const spec = payingSym(state, loan);
  if (spec === undefined) return;
  for (const [positionSide, qty] of legsOf(state, spec.sym, charge.div(spec.contractSize))) {
    const holding = positionFor(state, { sym: spec.sym, positionSide });
    spend(state, holding, qty);
    state.opts.onHoldingSpent({ sym: spec.sym, positionSide, qty, price: holding.avgPrice, ts: state.now });
    publishPosition(state, holding);
    state.hooks.capReduceOnly(holding);
  }
}
