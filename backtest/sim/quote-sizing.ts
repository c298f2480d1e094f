import type { BookLevel, Dec, InstrumentSpec } from '../../core/model/index.ts';
import { asNumber, floorToStep, ZERO } from '../../core/model/index.ts';
import { finishOrder } from './fills.ts';
import { lotQty, offered, tickShift } from './level-fill.ts';
import type { SymMarket } from './market-state.ts';
import { badQtyOrPrice } from './order-parameters.ts';
import { trimToReducible } from './reduce-only-trim.ts';
import { rejectionReason } from './sim-errors.ts';
import type { SimOrder } from './sim-order.ts';
import type { SimState } from './sim-state.ts';
import { inSession } from './trading-hours.ts';

/*
 * A quote-sized market order (quoteOrderQty with qty 0) buys or sells as many lots as its quote
 * amount pays for at the prices it fills at: the sim sizes it when it is about to take, walking
 * the same levels at the same prices (slippage and beyond-book ticks included) as the fill will,
 * so the fills cost at most the quote amount (fees on top, as for a qty order). Sized, it is an
 * ordinary market order of that qty.
 */

/**
 * Whether an order is a quote-sized market order not sized yet.
 * @param order - an order
 * @returns true while its qty waits for the prices it fills at
 */
export function isUnsizedQuoteOrder(order: Pick<SimOrder, 'quoteQty' | 'qty'>): boolean {
  return order.quoteQty !== undefined && order.qty.isZero();
}

/** The qty a quote amount pays for on the levels the order would take now, and the first fill price. */
interface QuoteSize {
  readonly qty: Dec;
  readonly firstPrice: Dec;
}

/** Where a quote-sized order would take now: its sym's market and the levels `takeableLevels` gives. */
export interface TakingPlace {
  readonly market: SymMarket;
  readonly levels: readonly BookLevel[];
}

/**
 * Walks the levels `take` (matching.ts) would fill the order on, at the prices it would fill at,
 * spending the quote amount: each level's offered size (whole lots) while the amount pays for all
 * of it, then the lots the rest pays for at the next level or, past the displayed size, beyond the
 * book. Undefined when no price is known yet.
 */
function quoteSize(
  state: SimState,
  order: SimOrder,
  spec: InstrumentSpec,
  quote: Dec,
  { market, levels }: TakingPlace,
): QuoteSize | undefined {
  const model = state.opts.fillModel;
  if (levels.length === 0) return undefined;
  const buy = order.sign > 0;
  const displayed = state.matchingBar === undefined && (buy ? market.asks : market.bids).length > 0;
  const taken = displayed ? (buy ? market.asksTaken : market.bidsTaken) : undefined;
  const sweptAt = displayed ? (buy ? market.asksSweptAt : market.bidsSweptAt) : Number.NaN;
  let left = quote;
  let qty = ZERO;
  let firstPrice: Dec | undefined;
  let last: number | undefined;
  for (const [price, size] of levels) {
    last = price;
    const onOffer = offered(model.partialFills, price === sweptAt ? undefined : taken, price, size);
    if (!(onOffer > 0)) continue;
    const fillPrice = tickShift(state, market, order, price, model.slippageTicks);
    firstPrice ??= fillPrice;
    const unit = fillPrice.mul(spec.contractSize);
    if (!unit.gt(0)) return { qty, firstPrice };
    const affordable = floorToStep(left.div(unit), spec.lotSize);
    const available = Number.isFinite(onOffer) ? lotQty(state, order.sym, onOffer) : undefined;
    if (available === undefined || affordable.lt(available)) return { qty: qty.plus(affordable), firstPrice };
    qty = qty.plus(available);
    left = left.minus(available.mul(unit));
  }
  if (last === undefined) return undefined;
  const beyond = tickShift(state, market, order, last, model.beyondBookTicks + model.slippageTicks);
  const unit = beyond.mul(spec.contractSize);
  firstPrice ??= beyond;
  return unit.gt(0)
    ? { qty: qty.plus(floorToStep(left.div(unit), spec.lotSize)), firstPrice }
    : { qty, firstPrice };
}

/**
 * Sizes a quote-sized market order at the prices it would fill at now, or says why it cannot be:
 * its amount pays for less than one lot, or the qty it pays for breaks the instrument's limits
 * (minimum size, maxMarketSize). Sized, an order that only reduces is trimmed to its position as
 * a qty order is when sent (`trimToReducible`). Leaves it unsized when no price is known yet.
 * @param state - the venue
 * @param order - an unsized quote-sized order
 * @param spec - its instrument
 * @returns the 400001 detail when the amount cannot be traded, else undefined
 */
function sizeNow(
  state: SimState,
  order: SimOrder,
  spec: InstrumentSpec,
  place: TakingPlace,
): string | undefined {
  const quote = order.quoteQty ?? ZERO;
  const size = quoteSize(state, order, spec, quote, place);
  if (size === undefined) return undefined;
  const at = `at ${size.firstPrice.toFixed()}`;
  if (size.qty.isZero())
    return `quoteOrderQty ${quote.toFixed()} pays for less than one lot (${spec.lotSize.toFixed()}) of ${order.sym} ${at}`;
  const bad = badQtyOrPrice({ qty: size.qty, orderType: 'MARKET', price: ZERO }, spec);
  if (bad !== undefined)
    return `quoteOrderQty ${quote.toFixed()} pays for qty ${size.qty.toFixed()} ${at}: ${bad}`;
  order.qty = size.qty;
  order.remainingN = asNumber(size.qty);
  trimToReducible(state, order);
  return undefined;
}

/**
 * Sizes an arriving quote-sized market order when it is about to take (off bars, inside its
 * session, a price known); one that must wait is sized when it comes to fill
 * ({@link refusedUnsizable}).
 * @param state - the venue
 * @param order - the arriving, unsized quote-sized order
 * @param spec - its instrument
 * @param place - where it would take: its sym's market and levels (matching.ts `takeableLevels`)
 * @returns the 400001 detail when its amount cannot be traded now, else undefined
 */
export function quoteSizingRefusal(
  state: SimState,
  order: SimOrder,
  spec: InstrumentSpec,
  place: TakingPlace,
): string | undefined {
  if (state.opts.fillModel.name === 'bar' || !inSession(state, order)) return undefined;
  return sizeNow(state, order, spec, place);
}

/**
 * Sizes a waiting quote-sized market order at the price it has come to fill at (on bars, the
 * bar's open with slippage); rejects it (400001) when its amount pays for no tradable qty there.
 * @param state - the venue
 * @param order - an unsized quote-sized order whose sym has a price
 * @param place - where it takes: its sym's market and levels (matching.ts `takeableLevels`)
 * @returns true when the order was rejected
 */
export function refusedUnsizable(state: SimState, order: SimOrder, place: TakingPlace): boolean {
  const spec = state.opts.instruments.get(order.sym);
  const refusal = spec === undefined ? undefined : sizeNow(state, order, spec, place);
  if (refusal === undefined) return false;
  order.reason = rejectionReason('BAD_PARAMETERS', refusal);
  finishOrder(state, order, 'REJECTED', 'REJECT');
  return true;
}
