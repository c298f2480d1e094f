import type { Dec } from '../model/index.ts';
import { asNumber, isAtMost, onlyReducesPosition } from '../model/index.ts';
import { forEachAddingAlgoOrder } from './adding-algo-orders.ts';
import { clearlyWithinExposure, exposureAfter } from './open-order-exposure.ts';
import {
  isUnsizedQuoteOrder,
  mayCarryModifyClaim,
  notionalOf,
  ORDER_TERMS_INTENTS,
  type OrderTerms,
  openOrderLeft,
  orderNotional,
  sizeKnown,
  termsOf,
  termsWithSpecOf,
  unfilledQty,
} from './order-terms.ts';
import {
  closingSameSide,
  isAddingSameSide,
  isPendingSameSide,
  pendingSameSideSplit,
  reducesPosition,
} from './position-reduction.ts';
import { type CheckInput, deny, type RiskCheck } from './risk-check.ts';
import type { RiskView } from './risk-view.ts';

/**
 * A reduce-only order (the venue never lets it fill past the position), or one that reduces
 * after every strategy's resting orders on its side filled first.
 */
function isReducing(terms: OrderTerms, view: RiskView): boolean {
  return terms.reduceOnly || reducesPosition(terms, view);
}

function scopeLabel({ scope, strategyId }: CheckInput): string {
  return scope === 'portfolio' ? 'the portfolio' : `strategy ${strategyId}`;
}

/** The order's notional (qty * contractSize * price, market orders at the reference price) is at most maxNotionalPerOrder. */
export const maxNotionalCheck: RiskCheck = {
  name: 'maxNotional',
  kind: 'limit',
  intents: ORDER_TERMS_INTENTS,
  enforces: (limits) => limits.maxNotionalPerOrder !== undefined,
  run(input) {
    const { intent, limits } = input;
    const max = limits.maxNotionalPerOrder;
    if (max === undefined) return undefined;
    const found = termsWithSpecOf(input);
    if (found === undefined) return undefined;
    const { terms, spec } = found;
    const notional = notionalOf(input, terms, spec);
    if (notional === undefined) {
      return deny(
        'maxNotional',
        `${intent.kind} ${intent.ref}: no reference price for ${terms.sym}, so its notional cannot be bounded`,
      );
    }
    if (isAtMost(notional, asNumber(notional), max, asNumber(max))) return undefined;
    return deny(
      'maxNotional',
      `${intent.kind} ${intent.ref}: notional ${notional.toFixed()} is over ${scopeLabel(input)}'s maxNotionalPerOrder ${max.toFixed()}`,
    );
  },
};

/**
 * The position per sym (and leg), counting the same-side open orders as if filled, stays at most
 * maxPositionQty (or its per-sym override): |position ± (their unfilled qty + the order's qty)|.
 * A quote-sized order, new or open and not sized yet, counts at the qty its amount buys at the
 * reference price.
 * The position is the portfolio's (the venue nets strategies together), also for a strategy's
 * own limit; at strategy scope only that strategy's open orders are counted, so only the
 * portfolio's limit bounds what several strategies' orders do together. Reduce-only orders
 * (the order or the counted ones; in BOTH mode every closing order of a leg) fill only while the position is opposite to them, so together
 * they count for at most the position: filled first, they leave the plain orders to carry it the
 * rest of the way, which is the worst case checked (a reduce-only order passes alone, and is
 * denied when plain orders resting beside it would then overshoot the limit). An order passes
 * when it reduces what the position has left after the counted same-side orders: several orders
 * that each fit the position alone do not all pass, the part beyond what is left is checked as
 * an opening.
 * A modification counts with its new qty, less what the order filled already (that part is in
 * the position), in place of the order it replaces; an open order with a modify in flight counts
 * at the larger of its qty and the modify's, and a position close in flight as a reduce-only
 * order of the whole leg (see `pendingSameSideSplit`). Algo orders are checked when placed or
 * replaced, as the order their trigger sends (the venue sends it without the gate). Resting ones
 * (not triggered yet, or sent and not answered yet) that can add to a position count as open
 * orders of the qty they send, as if all fired, whichever strategy sent them and whichever was
 * sent first; reduce-only ones and the take-profit and stop-loss attached to an order are exits
 * and are not counted (Keel's choice: a stop and a take-profit on one position are alternatives,
 * counting both as filled would deny orders that cannot breach).
 */
export const maxPositionCheck: RiskCheck = {
  name: 'maxPosition',
  kind: 'limit',
  intents: ORDER_TERMS_INTENTS,
  enforces: (limits) => limits.maxPositionQty !== undefined || limits.maxPositionQtyBySym !== undefined,
  run(input) {
    const { intent, view, limits, scope, strategyId } = input;
    const terms = termsOf(input);
    if (terms === undefined) return undefined;
    const max = limits.maxPositionQtyBySym?.[terms.sym] ?? limits.maxPositionQty;
    if (max === undefined) return undefined;
    if (!sizeKnown(terms)) {
      return deny(
        'maxPosition',
        `${intent.kind} ${intent.ref}: no reference price for ${terms.sym}, so the quantity its quoteOrderQty buys cannot be bounded`,
      );
    }
    const owner = scope === 'strategy' ? strategyId : undefined;
    if (clearlyWithin(terms, view, owner, max)) return undefined;
    const pending = pendingSameSideSplit(terms, view, owner);
    const position = view.positionQty(terms.sym, terms.positionSide);
    const opposite = !position.isZero() && (terms.side === 'BUY') === position.isNegative();
    const onlyReduces = onlyReducesPosition(terms);
    const left = unfilledQty(terms);
    const plain = onlyReduces ? pending.plain : pending.plain.add(left);
    const reduceOnly = onlyReduces ? pending.reduceOnly.add(left) : pending.reduceOnly;
    // Reduce-only orders fill only while the position is opposite to them: filled first, they
    // take at most the position, and the plain orders then carry it as far as they go.
    const room = position.abs();
    const added = opposite ? plain.add(reduceOnly.lessThan(room) ? reduceOnly : room) : plain;
    const reduces = opposite && added.lessThanOrEqualTo(room);
    if (reduces) return undefined;
    const projected = (terms.side === 'BUY' ? position.add(added) : position.sub(added)).abs();
    if (projected.lessThanOrEqualTo(max)) return undefined;
    return deny(
      'maxPosition',
      `${intent.kind} ${intent.ref}: ${terms.sym} position would reach ${projected.toFixed()} with open orders, over ${scopeLabel(input)}'s maxPositionQty ${max.toFixed()}`,
    );
  },
};

/** Relative room left for float rounding when the estimate below decides alone. */
const ESTIMATE_MARGIN = 1e-9;

/**
 * The maxPosition projection on numbers: true when the position plus every same-side open order
 * plus the order stays below the limit by more than any float rounding could account for, so the
 * exact Decimal sum (one Decimal add per open order: ~0.3 µs each, per intent) is needed only
 * near or over the limit. Each Decimal is converted exactly rounded; a sum of n of them is off
 * by at most n * 2^-53 of its magnitude, far inside ESTIMATE_MARGIN for any realistic n.
 */
function clearlyWithin(terms: OrderTerms, view: RiskView, owner: string | undefined, max: Dec): boolean {
  const qty = asNumber(terms.qty) - (terms.filled === undefined ? 0 : asNumber(terms.filled));
  const closing = asNumber(closingSameSide(terms, view, owner));
  let added = qty + closing;
  // The rounding bound scales with the terms' sizes, not their sum (terms of either sign may cancel).
  let magnitude = Math.abs(qty) + closing;
  for (const order of view.openOrdersOn(terms.sym, owner)) {
    if (!isPendingSameSide(order, terms)) continue;
    const remaining =
      isUnsizedQuoteOrder(order) || mayCarryModifyClaim(order)
        ? asNumber(openOrderLeft(order, view))
        : asNumber(order.orderQty) - asNumber(order.executedQty);
    added += remaining;
    magnitude += Math.abs(remaining);
  }
  forEachAddingAlgoOrder(view, owner, terms.replacesAlgo, (algo) => {
    if (!isAddingSameSide(algo, terms)) return;
    const qtyOf = asNumber(algo.qty);
    added += qtyOf;
    magnitude += Math.abs(qtyOf);
  });
  const position = asNumber(view.positionQty(terms.sym, terms.positionSide));
  const projected = Math.abs(terms.side === 'BUY' ? position + added : position - added);
  const limit = asNumber(max);
  return projected < limit - (Math.abs(position) + magnitude + limit) * ESTIMATE_MARGIN;
}

/**
 * Gross exposure after the order stays within maxGrossExposure: the current gross exposure (each
 * position of the account at its mark, see `RiskView.grossExposure`, at either scope: a
 * strategy's limit counts the positions of every sym and strategy too) plus what the order and
 * the open orders that can add to a position would add if they filled, algo orders not triggered
 * yet that can add to a position as if they fired (see {@link exposureAfter}: at portfolio scope
 * every strategy's open orders, at strategy scope the strategy's own). The
 * denial says how much of the total the positions are. An order that
 * reduces passes. Cost per intent while the limit is set: one walk over the open orders in scope
 * on numbers; the exact Decimal walk only when that over-estimate reaches the limit.
 */
export const maxGrossExposureCheck: RiskCheck = {
  name: 'maxGrossExposure',
  kind: 'limit',
  intents: ORDER_TERMS_INTENTS,
  enforces: (limits) => limits.maxGrossExposure !== undefined,
  run(input) {
    const { intent, view, limits, scope, strategyId } = input;
    const max = limits.maxGrossExposure;
    if (max === undefined) return undefined;
    const found = termsWithSpecOf(input);
    if (found === undefined || isReducing(found.terms, view)) return undefined;
    const { terms, spec } = found;
    const current = view.grossExposure?.();
    // A modification adds only what its order has left unfilled: the filled part is in the position.
    const notional =
      terms.filled === undefined
        ? notionalOf(input, terms, spec)
        : orderNotional({ ...terms, qty: unfilledQty(terms) }, spec, view);
    if (current === undefined || notional === undefined) {
      return deny(
        'maxGrossExposure',
        `${intent.kind} ${intent.ref}: gross exposure cannot be computed (${current === undefined ? 'the state does not report it' : `no reference price for ${terms.sym}`})`,
      );
    }
    const owner = scope === 'strategy' ? strategyId : undefined;
    if (clearlyWithinExposure(current, notional, terms, view, owner, max)) return undefined;
    const after = exposureAfter(current, notional, terms, view, owner);
    if (after === undefined) {
      return deny(
        'maxGrossExposure',
        `${intent.kind} ${intent.ref}: gross exposure cannot be computed (an open market order or market algo order has no reference price)`,
      );
    }
    if (after.lessThanOrEqualTo(max)) return undefined;
    // The positions are the account's at either scope (a strategy's limit counts them too).
    const counted =
      scope === 'strategy'
        ? `positions ${current.toFixed()} account-wide, on every sym and of every strategy, with this order and strategy ${strategyId}'s open orders`
        : `positions ${current.toFixed()}, with this order and every strategy's open orders`;
    return deny(
      'maxGrossExposure',
      `${intent.kind} ${intent.ref}: gross exposure would reach ${after.toFixed()} (${counted}), over ${scopeLabel(input)}'s maxGrossExposure ${max.toFixed()}`,
    );
  },
};
