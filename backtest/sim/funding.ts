import { decimalOf, isPerpetual } from '../../core/model/index.ts';
import { noteVenueWork } from './early-span-work.ts';
import { republishMovedLiqPrices } from './liq-price-watch.ts';
import { equityOf } from './margin.ts';
import type { SymMarket } from './market-state.ts';
import { publishBalances, publishPosition } from './publish.ts';
import { credit, type SimState } from './sim-state.ts';

/**
 * Settles perpetual funding when virtual time reaches the venue's nextFundingTime (from recorded
 * MARK_PRICE events): each position on the sym pays qty x contractSize x mark x fundingRate (longs
 * pay a positive rate, shorts receive it), a FUNDING_FEE cash flow in the settle asset. Every
 * position whose liqPrice the payments moved is republished.
 * @param state - the venue
 * @param sym - the sym whose event just arrived
 * @param market - its market state
 * @param markN - the last mark at or before the funding time: the market's, unless a mark event
 *   received at that time is about to replace its funding time (it is folded after)
 * @returns true when a position paid or received funding (equity moved)
 */
export function settleFunding(
  state: SimState,
  sym: string,
  market: SymMarket,
  markN: number = market.mark,
): boolean {
  const due = market.nextFundingTime;
  if (!(due <= state.now) || market.fundingSettledAt === due) return false;
  market.fundingSettledAt = due;
  const spec = state.opts.instruments.get(sym);
  if (spec === undefined || !isPerpetual(spec.id) || Number.isNaN(markN)) return false;
  noteVenueWork(state, due, sym, `the funding of ${sym}`, false);
  const rate = decimalOf(market.fundingRate);
  const mark = decimalOf(markN);
  let paidAny = false;
  for (const position of state.positions.values()) {
    if (position.sym !== sym || position.qty.isZero()) continue;
    const amount = position.qty.mul(spec.contractSize).mul(mark).mul(rate).neg();
    credit(state, spec.settleAsset, amount);
    state.ledger.funding = state.ledger.funding.plus(amount);
    state.cashFlows.push({ type: 'FUNDING_FEE', coin: spec.settleAsset, amount, sym, ts: due });
    publishPosition(state, position);
    paidAny = true;
  }
  if (!paidAny) return false;
  const equity = equityOf(state);
  republishMovedLiqPrices(state, equity);
  publishBalances(state, [spec.settleAsset], equity);
  return true;
}
