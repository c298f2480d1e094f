import { DateTime } from 'luxon';
import type { InstrumentSpec, PlaceOrderIntent } from '../../core/model/index.ts';
import { parseTimeToSend, US_EQUITY_ZONE, ZERO } from '../../core/model/index.ts';
import { rejectCommand } from './command-rejection.ts';
import { orderRefTaken } from './final-order-retention.ts';
import { takingPlace, workOrder, wouldTake } from './matching.ts';
import { createOrder } from './order-factory.ts';
import { badFieldValue, badParameter, EXPIRY_DATE, isQuoteSized } from './order-parameters.ts';
import { publishOrder } from './publish.ts';
import { isUnsizedQuoteOrder, quoteSizingRefusal } from './quote-sizing.ts';
import { liquidationRefusal, marginCheckRefusal, sendRefusal } from './send-checks.ts';
import { rejectionReason, type SimErrorName } from './sim-errors.ts';
import type { SimOrder } from './sim-order.ts';
import type { SimState } from './sim-state.ts';

/**
 * Refuses an order beyond its sym's maxNumOrders (400001). The new order is registered already:
 * more than maxNumOrders live on the sym means one too many.
 */
function tooManyOrders(state: SimState, sym: string, spec: InstrumentSpec): string | undefined {
  if (state.liveOrders.size <= spec.maxNumOrders) return undefined;
  let open = 0;
  for (const order of state.liveOrders) if (order.sym === sym) open++;
  return open > spec.maxNumOrders
    ? `${sym} already has maxNumOrders ${spec.maxNumOrders} open orders`
    : undefined;
}

function expiryOf(state: SimState, intent: PlaceOrderIntent): number {
  if (intent.timeInForce === 'DAY') return state.opts.dayEnd(state.now, intent.sym);
  if (intent.timeInForce === 'GTD') {
    // GTD lives through the whole expiry date (Keel's choice): a US equity's date in New York, any
    // other in UTC. Without a date the order is rejected (badParameter); its expiry must still be
    // a number, or it would poison the timers' deadline.
    const date = EXPIRY_DATE.test(intent.expiryDate ?? '') ? (intent.expiryDate as string) : '';
    const zone = intent.sym.startsWith('US_EQUITY_') ? US_EQUITY_ZONE : 'utc';
    const end = DateTime.fromISO(date, { zone }).plus({ days: 1 });
    return end.isValid ? end.toMillis() : Number.POSITIVE_INFINITY;
  }
  return Number.POSITIVE_INFINITY;
}

/**
 * Refuses a GTD order whose expiry date had already ended when it arrived (400001), rather than
 * letting it rest (or fill) and expire at the same instant. Keel's choice, after Binance USD-M
 * futures, which rejects a GTD order whose goodTillDate is not far enough ahead; the public venue
 * docs do not say. The default end of a DAY order always lies after its arrival, so only GTD is
 * checked.
 */
function expiredOnArrival(state: SimState, order: SimOrder): string | undefined {
  if (order.timeInForce !== 'GTD' || order.expireAt > state.now) return undefined;
  return `GTD expiryDate ${order.expiryDate} ended at ${new Date(order.expireAt).toISOString()}, before the order arrived`;
}

/**
 * Refuses an order on arrival. Live, such a refusal is the reply's error envelope: the venue hands
 * out no order id and keeps no order, so the refused order is unregistered (its clientOrderId is
 * free for a corrected retry, lookups do not find it) and reported as the options say: a REJECTED
 * order (backtests: the kernel tells the strategy, orders.csv lists it) or a CommandRejectedEvent
 * only (the paper venue answers it as the reply's error).
 */
function reject(state: SimState, order: SimOrder, name: SimErrorName, detail?: string): void {
  state.liveOrders.delete(order);
  state.ordersByRef.delete(order.clientOrderId);
  if (state.opts.placementRefusals === 'commandRejected') {
    rejectCommand(state, order.clientOrderId, 'placeOrder', name, detail);
    return;
  }
  order.state = 'REJECTED';
  order.remainingN = 0;
  order.reason = rejectionReason(name, detail);
  publishOrder(state, order, 'REJECT');
}

/**
 * Accepts or rejects a new order. Rejections come back as a REJECTED order whose `reason` is
 * `"<code> <message>"` (or, with `placementRefusals: 'commandRejected'`, a CommandRejectedEvent
 * with that code and message), and leave no order behind; a duplicate clientOrderId is a CommandRejectedEvent (406010), so it cannot
 * overwrite the live order that owns that reference. A GTD order whose expiry date has passed when
 * it arrives is rejected with 400001 (Keel's choice). An order sent at once meets the checks of
 * `sendRefusal` (reduce-only, margin); a conditional one is held after its margin check, and meets
 * them when its condition releases it.
 * @param state - the venue
 * @param intent - the command
 */
export function placeOrder(state: SimState, intent: PlaceOrderIntent): void {
  if (orderRefTaken(state, intent.ref)) {
    rejectCommand(state, intent.ref, intent.kind, 'DUPLICATE_CLIENT_ORDER_ID', intent.ref);
    return;
  }
  const spec = state.opts.instruments.get(intent.sym);
  const order = createOrder(state, {
    clientOrderId: intent.ref,
    sym: intent.sym,
    side: intent.side,
    orderType: intent.orderType,
    timeInForce: intent.timeInForce,
    qty: intent.qty,
    quoteQty: isQuoteSized(intent) ? intent.quoteOrderQty : undefined,
    price: intent.orderType === 'MARKET' ? ZERO : (intent.price ?? ZERO),
    // PLACE_ORDER has no reduce-only flag: the venue takes a US equity's order as a plain one,
    // neither trimmed nor cancelled when the position shrinks (the gate checked it when sent).
    reduceOnly: intent.reduceOnly && !intent.sym.startsWith('US_EQUITY_'),
    positionSide: intent.positionSide,
    // createOrder reads an absent optional field as undefined: passed as they are, without spreads.
    tp: intent.tp,
    sl: intent.sl,
    condition: intent.condition,
    extendedTrading: intent.extendedTrading,
    expiryDate: intent.expiryDate,
    expireAt: expiryOf(state, intent),
  });
  if (!spec) {
    reject(state, order, 'BAD_SYMBOL', intent.sym);
    return;
  }
  const bad =
    badFieldValue(intent) ??
    badParameter(state, intent, spec) ??
    (isUnsizedQuoteOrder(order)
      ? quoteSizingRefusal(state, order, spec, takingPlace(state, order))
      : undefined) ??
    expiredOnArrival(state, order) ??
    tooManyOrders(state, intent.sym, spec);
  if (bad !== undefined) {
    reject(state, order, 'BAD_PARAMETERS', bad);
    return;
  }
  // A conditional order is sent when released, and meets the checks of a sent order then
  // (`releaseHeld`); held, it locks margin as an open order does, so it must fit now too.
  const refusal = order.condition
    ? (liquidationRefusal(state) ?? marginCheckRefusal(state, order))
    : sendRefusal(state, order);
  if (refusal !== undefined) {
    reject(state, order, refusal.name, refusal.detail);
    return;
  }
  if (order.timeInForce === 'GTX' && !order.condition && wouldTake(state, order)) {
    reject(state, order, 'BAD_PARAMETERS', 'post-only (GTX) order would take liquidity');
    return;
  }
  publishOrder(state, order, 'PLACE');
  if (order.condition) {
    state.held.push(order);
    if (order.condition.code === 'TIME') {
      state.deadline = Math.min(state.deadline, parseTimeToSend(order.condition.timeToSend ?? ''));
    }
    return;
  }
  workOrder(state, order);
}
