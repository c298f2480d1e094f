import type {
  Dec,
  InstrumentSpec,
  Intent,
  IntentKind,
  Order,
  OrderSide,
  OrderType,
  PositionSide,
  ReplaceAlgoOrderIntent,
} from '../model/index.ts';
import { decimalOfComputed, ZERO } from '../model/index.ts';
import type { RiskView } from './risk-view.ts';

/** The order an intent would put on the book, as the size and limit checks see it. */
export interface OrderTerms {
  readonly sym: string;
  readonly side: OrderSide;
  readonly orderType: OrderType;
  /**
   * Contracts. For a quote-sized market order (`quoteOrderQty` with qty 0) this is the estimate
   * quoteQty / (contractSize * reference price), or zero when no reference price is known.
   */
  readonly qty: Dec;
  /** The quote amount of a quote-sized market order; its notional is this amount, not an estimate. */
  readonly quoteQty?: Dec;
  /** Limit price; undefined for market orders. */
  readonly price: Dec | undefined;
  readonly positionSide: PositionSide;
  readonly reduceOnly: boolean;
  /** clientOrderId of the order being modified, so projections do not count it twice. */
  readonly replaces?: string;
  /** clientAlgoOrderId of the algo order being replaced, so projections do not count it twice. */
  readonly replacesAlgo?: string;
  /**
   * What the order being modified has filled already (absent when nothing): that part is in the
   * position, so the modification adds only its new qty less this.
   */
  readonly filled?: Dec;
}

/**
 * What the order can still trade: its qty, less what the modified order has filled already (in
 * the position). The size every position and exposure projection counts.
 * @param terms - the order
 * @returns the unfilled quantity
 */
export function unfilledQty(terms: OrderTerms): Dec {
  return terms.filled === undefined ? terms.qty : terms.qty.sub(terms.filled);
}

/** The intent kinds {@link orderTermsOf} finds order terms for. */
export const ORDER_TERMS_INTENTS: readonly IntentKind[] = [
  'placeOrder',
  'placeAlgoOrder',
  'modifyOrder',
  'replaceAlgoOrder',
];

/**
 * The order terms of an intent: a new order (a trailing stop, judged when placed, as the MARKET
 * order it sends when it fires: its intent is that order, its `trailingStop` aside, so a notional
 * at the reference price), an algo order (as the order its trigger places),
 * a modification merged with the open order it targets, or a replacement of an algo order merged
 * with the algo order (as the order its trigger then places; one the venue has not answered yet
 * as it was sent, with the replaces sent on it since; one it acknowledged with the replaces in
 * flight on it, the stricter of their terms: the largest qty, the price of the largest notional).
 * @param intent - any intent
 * @param view - the state, to find a modified order
 * @returns the terms, or undefined for intents that place no order (or modify an unknown one)
 */
export function orderTermsOf(intent: Intent, view: RiskView): OrderTerms | undefined {
  switch (intent.kind) {
    case 'placeOrder': {
      const terms: OrderTerms = {
        sym: intent.sym,
        side: intent.side,
        orderType: intent.orderType,
        qty: intent.qty,
        price: intent.orderType === 'LIMIT' ? intent.price : undefined,
        positionSide: intent.positionSide,
        reduceOnly: intent.reduceOnly,
      };
      const { quoteOrderQty } = intent;
      if (quoteOrderQty === undefined || !intent.qty.isZero()) return terms;
      return { ...terms, qty: estimatedQty(intent.sym, quoteOrderQty, view), quoteQty: quoteOrderQty };
    }
    case 'placeAlgoOrder':
      return {
        sym: intent.sym,
        side: intent.side,
        orderType: intent.price.isZero() ? 'MARKET' : 'LIMIT',
        qty: intent.qty,
        price: intent.price.isZero() ? undefined : intent.price,
        positionSide: intent.positionSide,
        reduceOnly: intent.reduceOnly,
      };
    case 'modifyOrder': {
      const order = view.orderByRef(intent.target);
      if (order === undefined) return undefined;
      const terms: OrderTerms = {
        sym: order.sym,
        side: order.side,
        orderType: order.orderType,
        qty: intent.qty ?? order.orderQty,
        price: order.orderType === 'LIMIT' ? (intent.price ?? order.limitPrice) : undefined,
        positionSide: order.positionSide,
        reduceOnly: order.reduceOnly,
        replaces: order.clientOrderId,
      };
      // An unfilled order (nearly every modify) costs one record, not one and a spread.
      return order.executedQty.isZero() ? terms : { ...terms, filled: order.executedQty };
    }
    case 'replaceAlgoOrder': {
      const known = view.algoOrderByRef(intent.target);
      const algo = known ?? view.inFlightAlgoOrder(intent.target);
      if (algo === undefined) return undefined;
      // Replaces in flight on an acknowledged algo order: the venue may hold either terms.
      const pending = known === undefined ? undefined : view.inFlightAlgoReplaces(intent.target);
      const held = pending === undefined || pending.length === 0 ? undefined : pending;
      const price = intent.price ?? (held === undefined ? algo.price : stricterAlgoPrice(algo, held, view));
      const qty = intent.qty ?? (held === undefined ? algo.qty : largestAlgoQty(algo.qty, held));
      return {
        sym: algo.sym,
        side: algo.side,
        orderType: price.isZero() ? 'MARKET' : 'LIMIT',
        qty,
        price: price.isZero() ? undefined : price,
        positionSide: algo.positionSide,
        reduceOnly: algo.reduceOnly,
        replacesAlgo: intent.target,
      };
    }
    default:
      return undefined;
  }
}

/**
 * The largest qty among an algo order's and the replaces in flight on it.
 * @param qty - the algo order's qty
 * @param replaces - the replaces in flight on it
 * @returns the largest
 */
export function largestAlgoQty(qty: Dec, replaces: readonly ReplaceAlgoOrderIntent[]): Dec {
  let largest = qty;
  for (const replace of replaces) if (replace.qty?.gt(largest)) largest = replace.qty;
  return largest;
}

/**
 * The price among an algo order's and the replaces in flight on it that makes its order's
 * notional largest: a market one (price 0) at the reference price (at zero without one).
 * @param algo - the algo order's sym and price
 * @param replaces - the replaces in flight on it
 * @param view - the state (reference price)
 * @returns the price, zero for a market one
 */
export function stricterAlgoPrice(
  algo: { readonly sym: string; readonly price: Dec },
  replaces: readonly ReplaceAlgoOrderIntent[],
  view: RiskView,
): Dec {
  const reference = view.referencePrice(algo.sym);
  const market = reference === undefined ? ZERO : decimalOfComputed(reference);
  const valued = (price: Dec): Dec => (price.isZero() ? market : price);
  let stricter = algo.price;
  for (const replace of replaces)
    if (replace.price !== undefined && valued(replace.price).gt(valued(stricter))) stricter = replace.price;
  return stricter;
}

/** Contracts a quote amount buys at the reference price; zero when the price or instrument is unknown. */
function estimatedQty(sym: string, quoteQty: Dec, view: RiskView): Dec {
  const reference = view.referencePrice(sym);
  const spec = view.instrument(sym);
  if (reference === undefined || reference <= 0 || spec === undefined) return ZERO;
  return quoteQty.div(spec.contractSize.mul(decimalOfComputed(reference)));
}

/**
 * Whether an open order is a quote-sized market order the venue has not sized yet: orderQty 0
 * and a positive quoteOrderQty (the simulated venue sizes it when it comes to fill).
 * @param order - an open order
 * @returns true while its orderQty says nothing of what it will trade
 */
export function isUnsizedQuoteOrder(order: Order): boolean {
  return order.orderQty.isZero() && order.quoteOrderQty?.gt(0) === true;
}

/**
 * What an open order can still trade, as the position projections count it: its orderQty less
 * what it filled; for a quote-sized market order not sized yet ({@link isUnsizedQuoteOrder}), the
 * qty its unspent amount (quoteOrderQty - executedAmount) buys at the reference price, the
 * estimate a new quote-sized order is checked with (zero when no reference price is known). An
 * order with a modify in flight (acknowledged or not) counts at the larger of its orderQty and
 * the qty the modify asks for ({@link RiskView.inFlightModifyQty}): until the venue answers, it
 * may fill at either.
 * @param order - an open order
 * @param view - the state (reference price, instrument, modifies in flight)
 * @returns the quantity still to trade, never negative for an unsized order
 */
export function openOrderLeft(order: Order, view: RiskView): Dec {
  if (isUnsizedQuoteOrder(order)) {
    const unspent = (order.quoteOrderQty as Dec).sub(order.executedAmount);
    return unspent.gt(0) ? estimatedQty(order.sym, unspent, view) : ZERO;
  }
  const qty = claimedOrderQty(order, view);
  return order.executedQty.isZero() ? qty : qty.sub(order.executedQty);
}

/**
 * Whether a modify may be in flight on an open order: only one shown PENDING_REPLACE (the venue
 * acknowledged it) or PENDING_NEW (a modify sent before the acknowledgement) can have one, so
 * others cost no look-up.
 * @param order - an open order
 * @returns true when the order may carry a modify's claim
 */
export function mayCarryModifyClaim(order: Order): boolean {
  return order.orderState === 'PENDING_REPLACE' || order.orderState === 'PENDING_NEW';
}

/**
 * The qty an open order may fill up to: its orderQty, or the larger qty a modify in flight on it
 * asks for ({@link mayCarryModifyClaim}; acknowledged or not).
 * @param order - an open order
 * @param view - the state
 * @returns the qty
 */
export function claimedOrderQty(order: Order, view: RiskView): Dec {
  if (!mayCarryModifyClaim(order)) return order.orderQty;
  const claimed = view.inFlightModifyQty(order);
  return claimed?.gt(order.orderQty) ? claimed : order.orderQty;
}

/**
 * The limit price an open order may rest at: its limitPrice, or the higher price a modify in
 * flight on it asks for ({@link mayCarryModifyClaim}), which makes its notional larger.
 * @param order - an open limit order
 * @param view - the state
 * @returns the price
 */
export function claimedLimitPrice(order: Order, view: RiskView): Dec {
  if (!mayCarryModifyClaim(order)) return order.limitPrice;
  const claimed = view.inFlightModifyPrice(order);
  return claimed?.gt(order.limitPrice) ? claimed : order.limitPrice;
}

/**
 * The price a notional is computed at: the limit price, else the reference price.
 * @param terms - the order
 * @param view - the state
 * @returns the price, or undefined when a market order has no reference price
 */
export function notionalPrice(terms: OrderTerms, view: RiskView): Dec | undefined {
  if (terms.price !== undefined) return terms.price;
  const reference = view.referencePrice(terms.sym);
  return reference === undefined ? undefined : decimalOfComputed(reference);
}

/**
 * Whether the order's size is known: false for a positive quote-sized market order while no
 * reference price is known (its qty is then a placeholder zero).
 * @param terms - the order
 * @returns true when `terms.qty` is the real (or estimated) size
 */
export function sizeKnown(terms: OrderTerms): boolean {
  return terms.quoteQty === undefined || !terms.qty.isZero() || !terms.quoteQty.gt(0);
}

/**
 * The order's notional in the settle asset: the quote amount of a quote-sized order, else
 * qty * contractSize * price (the limit price, else the reference price).
 * @param terms - the order
 * @param spec - its instrument
 * @param view - the state
 * @returns the notional, or undefined when a market order has no reference price
 */
export function orderNotional(terms: OrderTerms, spec: InstrumentSpec, view: RiskView): Dec | undefined {
  if (terms.quoteQty !== undefined) return terms.quoteQty;
  const price = notionalPrice(terms, view);
  return price === undefined ? undefined : terms.qty.mul(spec.contractSize).mul(price);
}

/**
 * One evaluation's order terms and notional, filled on first use: the state does not change while
 * the gate decides one intent, so every check may read the same values.
 */
export interface SharedTerms {
  termsDone: boolean;
  terms: OrderTerms | undefined;
  withSpecDone: boolean;
  withSpec: TermsWithSpec | undefined;
  notionalDone: boolean;
  notional: Dec | undefined;
}

/** What {@link termsOf} and {@link notionalOf} read: a check's input (see CheckInput). */
export interface TermsInput {
  readonly intent: Intent;
  readonly view: RiskView;
  readonly shared?: SharedTerms;
}

/**
 * A fresh, empty {@link SharedTerms} for one evaluation.
 * @returns nothing computed yet
 */
export function sharedTerms(): SharedTerms {
  return {
    termsDone: false,
    terms: undefined,
    withSpecDone: false,
    withSpec: undefined,
    notionalDone: false,
    notional: undefined,
  };
}

/**
 * Empties a shared terms record for the next intent, as {@link sharedTerms} makes it.
 * @param shared - the record
 */
export function resetSharedTerms(shared: SharedTerms): void {
  shared.termsDone = false;
  shared.terms = undefined;
  shared.withSpecDone = false;
  shared.withSpec = undefined;
  shared.notionalDone = false;
  shared.notional = undefined;
}

/**
 * The order terms of a check's intent ({@link orderTermsOf}), computed once per evaluation.
 * @param input - the check's input
 * @returns the terms, or undefined for intents that place no order
 */
export function termsOf(input: TermsInput): OrderTerms | undefined {
  const shared = input.shared;
  if (shared === undefined) return orderTermsOf(input.intent, input.view);
  if (!shared.termsDone) {
    shared.terms = orderTermsOf(input.intent, input.view);
    shared.termsDone = true;
  }
  return shared.terms;
}

/** A check's order terms with their instrument's spec. */
export interface TermsWithSpec {
  readonly terms: OrderTerms;
  readonly spec: InstrumentSpec;
}

/**
 * The order terms of a check's intent ({@link termsOf}) with their instrument: what the size,
 * notional and exposure checks start from. Found once per evaluation, as the terms are: up to
 * six checks of one intent ask for them.
 * @param input - the check's input
 * @returns both, or undefined when the intent places no order or its sym is unknown
 */
export function termsWithSpecOf(input: TermsInput): TermsWithSpec | undefined {
  const shared = input.shared;
  if (shared === undefined) return pairWithSpec(input);
  if (!shared.withSpecDone) {
    shared.withSpec = pairWithSpec(input);
    shared.withSpecDone = true;
  }
  return shared.withSpec;
}

function pairWithSpec(input: TermsInput): TermsWithSpec | undefined {
  const terms = termsOf(input);
  const spec = terms === undefined ? undefined : input.view.instrument(terms.sym);
  return terms === undefined || spec === undefined ? undefined : { terms, spec };
}

/**
 * The notional of a check's order terms ({@link orderNotional}), computed once per evaluation.
 * @param input - the check's input
 * @param terms - the terms {@link termsOf} gave for it
 * @param spec - their instrument
 * @returns the notional, or undefined when a market order has no reference price
 */
export function notionalOf(input: TermsInput, terms: OrderTerms, spec: InstrumentSpec): Dec | undefined {
  const shared = input.shared;
  if (shared === undefined) return orderNotional(terms, spec, input.view);
  if (!shared.notionalDone) {
    shared.notional = orderNotional(terms, spec, input.view);
    shared.notionalDone = true;
  }
  return shared.notional;
}
