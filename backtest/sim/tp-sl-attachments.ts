import { cancelAlgo, openAlgo } from './algo-orders.ts';
import { freeAlgoRef } from './generated-refs.ts';
import { positionKeyFor } from './margin.ts';
import type { SimOrder } from './sim-order.ts';
import { reducibleQty } from './sim-position.ts';
import type { SimAlgo, SimState } from './sim-state.ts';
import { positionsOf } from './spot-holdings.ts';

/**
 * Keeps the take-profit / stop-loss attachments with the positions they protect, as an order ends
 * with fills (FILLED, or CANCELLED / REJECTED after part of it filled). First places the order's
 * own tp and sl, for the filled quantity, reduce-only, as a linked pair: when one fires the other
 * is cancelled. Keel's choice: attachments wait for the parent's final state, so a partially
 * filled parent protects only what it filled. A parent BUY gets a SELL tp (price rising to its
 * trigger, GTE) and a SELL sl (falling, LTE); mirrored for a SELL. Then cancels the attached legs
 * on the order's sym that its fills left without their position ({@link dropOrphanedLegs}).
 * @param state - the venue
 * @param order - an order that ended with fills
 */
export function attachTpSl(state: SimState, order: SimOrder): void {
  openAttachments(state, order);
  dropOrphanedLegs(state, order.sym);
}

function openAttachments(state: SimState, parent: SimOrder): void {
  if ((!parent.tp && !parent.sl) || state.attached.has(parent.orderId) || !parent.filled.gt(0)) return;
  if (parent.state !== 'FILLED' && parent.state !== 'CANCELLED') return;
  state.attached.add(parent.orderId);
  const tp = openAttachedLeg(state, parent, 'tp');
  const sl = openAttachedLeg(state, parent, 'sl');
  if (tp && sl) {
    tp.sibling = sl.algoOrderId;
    sl.sibling = tp.algoOrderId;
  }
}

/**
 * Opens one attached leg of a parent: reduce-only on the other side for the filled quantity, its
 * trigger on the side where the leg pays (tp) or stops the loss (sl).
 * @param state - the venue
 * @param parent - the parent order
 * @param leg - which attachment
 * @returns the opened algo order, or undefined when the parent has no such leg
 */
function openAttachedLeg(state: SimState, parent: SimOrder, leg: 'tp' | 'sl'): SimAlgo | undefined {
  const spec = parent[leg];
  if (!spec) return undefined;
  const rising = (leg === 'tp') === (parent.side === 'BUY');
  return openAlgo(state, {
    sym: parent.sym,
    side: parent.side === 'BUY' ? 'SELL' : 'BUY',
    algoOrderType: 'TP_SL',
    qty: parent.filled,
    reduceOnly: true,
    positionSide: parent.positionSide,
    clientAlgoOrderId: freeAlgoRef(state, `${parent.clientOrderId}-${leg}`, () => `${parent.orderId}-${leg}`),
    attachedOrderId: parent.orderId,
    conditionType: rising ? 'GTE' : 'LTE',
    triggerType: spec.triggerType,
    triggerPrice: spec.triggerPrice,
    price: spec.price,
  });
}

/**
 * Whether an algo order is a tp / sl attachment whose position is gone: the position it reduces
 * (its sym and positionSide) has nothing it reduces (flat, or turned to the other side), or was
 * opened again after the leg was attached (it went flat in between). Such a leg would only act on
 * a position it was never sized or priced for. The spec says nothing of it; Keel's choice, as a
 * bracket's exits belong to the position its entry opened.
 * @param state - the venue
 * @param algo - an open algo order
 * @returns true for an attached leg without its position
 */
export function isOrphanedLeg(state: SimState, algo: SimAlgo): boolean {
  if (algo.attachedOrderId === undefined) return false;
  const position = positionsOf(state, algo.sym).get(positionKeyFor(state, algo.sym, algo.positionSide));
  return (
    position === undefined ||
    reducibleQty(position.qty, algo.side).isZero() ||
    position.createAt > algo.createAt
  );
}

/**
 * Cancels the tp / sl attachments on a sym whose position is gone ({@link isOrphanedLeg}), each
 * with the algo update a cancel gives (state CANCELLED).
 * @param state - the venue
 * @param sym - the symbol whose position may have closed
 */
export function dropOrphanedLegs(state: SimState, sym: string): void {
  if (state.algos.size === 0) return;
  for (const algo of [...state.algos.values()]) {
    if (algo.sym === sym && isOrphanedLeg(state, algo)) cancelAlgo(state, algo);
  }
}
