import type {
  CancelOrderIntent,
  CancelOrdersIntent,
  Dec,
  ModifyOrderIntent,
} from '../../core/model/index.ts';
import { asNumber, isOnStep } from '../../core/model/index.ts';
import { rejectCommand } from './command-rejection.ts';
import { finishOrder } from './fills.ts';
import { requeue, wouldTake } from './matching.ts';
import { isLive } from './order-factory.ts';
import { publishOrder } from './publish.ts';
import type { SimOrder } from './sim-order.ts';
import type { SimState } from './sim-state.ts';
import { releaseHeld } from './triggers.ts';

function findLive(
  state: SimState,
  ref: string,
  kind: 'modifyOrder' | 'cancelOrder',
  target: string,
): SimOrder | undefined {
  const order = state.ordersByRef.get(target);
  const forgotten = order ? undefined : state.forgottenStates.get(target);
  if (forgotten !== undefined) {
    rejectCommand(state, ref, kind, 'ORDER_ALREADY_FINAL', `order ${target} is ${forgotten}`);
    return undefined;
  }
  if (!order) {
    rejectCommand(state, ref, kind, 'ORDER_NOT_FOUND', `no order ${target}`);
    return undefined;
  }
  if (!isLive(order)) {
    // A cancel that arrives after the fill loses the race: the fill already happened in virtual time.
    rejectCommand(state, ref, kind, 'ORDER_ALREADY_FINAL', `order ${target} is ${order.state}`);
    return undefined;
  }
  return order;
}

/**
 * Whether an amendment would make a post-only (GTX) order take liquidity: it goes back to work at
 * once (a working order is re-entered, a HOLD order released) at a price the other side reaches.
 */
function takesAsPostOnly(state: SimState, order: SimOrder, price: Dec): boolean {
  if (order.timeInForce !== 'GTX' || !(order.working || order.condition?.code === 'HOLD')) return false;
  return wouldTake(state, { ...order, priceN: asNumber(price) });
}

/**
 * Modifies an open order's quantity and / or price. A resting order loses its queue place; a HOLD
 * order is released to the market by its modification (Keel's reading of HOLD). An amendment that
 * would make a post-only (GTX) order take is refused with 400001 and the order stays as it was
 * (Keel's choice, as placement refuses one: the public venue docs do not say; Binance, for one,
 * cancels such an order instead).
 * @param state - the venue
 * @param intent - the command
 */
export function modifyOrder(state: SimState, intent: ModifyOrderIntent): void {
  const order = findLive(state, intent.ref, intent.kind, intent.target);
  if (!order) return;
  const spec = state.opts.instruments.get(order.sym);
  if (!spec) return;
  if (intent.qty && (!intent.qty.gt(order.filled) || !isOnStep(intent.qty, spec.lotSize))) {
    rejectCommand(
      state,
      intent.ref,
      intent.kind,
      'BAD_PARAMETERS',
      `qty must exceed the filled ${order.filled.toFixed()} and be on the lot`,
    );
    return;
  }
  if (
    intent.price &&
    (order.orderType === 'MARKET' || !intent.price.gt(0) || !isOnStep(intent.price, spec.tickSize))
  ) {
    rejectCommand(
      state,
      intent.ref,
      intent.kind,
      'BAD_PARAMETERS',
      'price must be a positive multiple of the tick on a limit order',
    );
    return;
  }
  if (takesAsPostOnly(state, order, intent.price ?? order.price)) {
    rejectCommand(
      state,
      intent.ref,
      intent.kind,
      'BAD_PARAMETERS',
      `post-only (GTX) order would take liquidity at ${(intent.price ?? order.price).toFixed()}`,
    );
    return;
  }
  const priceChanged = intent.price !== undefined && !intent.price.eq(order.price);
  const qtyChanged = intent.qty !== undefined && !intent.qty.eq(order.qty);
  if (intent.price) {
    order.price = intent.price;
    order.priceN = asNumber(intent.price);
  }
  if (intent.qty) {
    order.qty = intent.qty;
    order.remainingN = asNumber(intent.qty.minus(order.filled));
  }
  order.amendType = priceChanged && qtyChanged ? 'PRICE_QTY' : priceChanged ? 'PRICE' : 'QTY';
  publishOrder(state, order, 'AMEND_COMPLETED');
  if (!order.working) {
    if (order.condition?.code === 'HOLD') releaseHeld(state, order, 'HOLD order released by modification');
    return;
  }
  requeue(state, order);
}

/**
 * Cancels one order. It takes effect when the command arrives (after order-entry latency); if a
 * fill completed the order first, the cancel is refused with 401058.
 * @param state - the venue
 * @param intent - the command
 */
export function cancelOrder(state: SimState, intent: CancelOrderIntent): void {
  const order = findLive(state, intent.ref, intent.kind, intent.target);
  if (order) finishOrder(state, order, 'CANCELLED', 'CANCEL_COMPLETED', 'USER');
}

/**
 * Cancels the listed orders, or every open order on a sym (or everywhere). Unknown or final targets
 * are skipped silently, like a batch cancel (Keel's choice).
 * @param state - the venue
 * @param intent - the command
 */
export function cancelOrders(state: SimState, intent: CancelOrdersIntent): void {
  const targets = intent.targets
    ? intent.targets.map((ref) => state.ordersByRef.get(ref)).filter((o): o is SimOrder => o !== undefined)
    : [...state.liveOrders].filter((o) => intent.sym === undefined || o.sym === intent.sym);
  for (const order of targets) {
    if (isLive(order) && !order.liquidation)
      finishOrder(state, order, 'CANCELLED', 'CANCEL_COMPLETED', 'USER');
  }
}
