import type { CancelOrderIntent, CancelOrdersIntent, ModifyOrderIntent } from '../../core/model/index.ts';
import { asNumber, differs, isAboveZero, isOnStep } from '../../core/model/index.ts';
import { rejectCommand } from './command-rejection.ts';
import { minusAmount } from './decimal-sums.ts';
import { finishOrder } from './fills.ts';
import { finalStateOf } from './final-order-retention.ts';
import { orderMargin } from './initial-margin.ts';
import { marginRefusal, refusalDetail } from './margin-check.ts';
import { requeue, wouldTake } from './matching.ts';
import { isLive } from './order-factory.ts';
import { badQtyOrPrice } from './order-parameters.ts';
import { publishOrder } from './publish.ts';
import { trimAmendedToReducible } from './reduce-only-trim.ts';
import type { SimOrder } from './sim-order.ts';
import type { SimState } from './sim-state.ts';
import { releaseHeld } from './triggers.ts';

/**
 * Whether an order still listed as live had in fact ended by now: on the bar fill model the
 * expiry of an order inside the span of a bar the venue has yet to match waits for that bar (the
 * order meets it as it stood), but a command arriving after the expiry time finds it final.
 */
function hasExpired(state: SimState, order: SimOrder): boolean {
  return order.expireAt <= state.now;
}

function findLive(
  state: SimState,
  ref: string,
  kind: 'modifyOrder' | 'cancelOrder',
  target: string,
): SimOrder | undefined {
  const order = state.ordersByRef.get(target);
  const final = order ? undefined : finalStateOf(state, target);
  if (final !== undefined) {
    rejectCommand(state, ref, kind, 'ORDER_ALREADY_FINAL', `order ${target} is ${final}`);
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
  if (hasExpired(state, order)) {
    rejectCommand(
      state,
      ref,
      kind,
      'ORDER_ALREADY_FINAL',
      `order ${target} reached its ${order.timeInForce} end at ${new Date(order.expireAt).toISOString()}: ` +
        'it filled before then or expired, as its next update says (on bars, once the bar spanning that time is matched)',
    );
    return undefined;
  }
  return order;
}

/**
 * Whether an amendment would make a post-only (GTX) order take liquidity: it goes back to work at
 * once (a working order is re-entered, a HOLD order released) at a price the other side reaches.
 */
function takesAsPostOnly(state: SimState, order: SimOrder, priceN: number): boolean {
  if (order.timeInForce !== 'GTX' || !(order.working || order.condition?.code === 'HOLD')) return false;
  return wouldTake(state, { sym: order.sym, sign: order.sign, priceN });
}

/** The fields a modification changes, kept to put the order back when the amendment is refused. */
type Amendable = Pick<SimOrder, 'price' | 'priceN' | 'qty' | 'remainingN'>;

/**
 * Modifies an open order's quantity and / or price. A modification that changes neither (no qty
 * and the same price, or the same values) is refused with 400001 and the order stays as it was;
 * an accepted one is labelled with what it changed (`amendType`). Every accepted modification
 * re-queues a resting order, whatever it changed (a lower qty included): it goes to the back of its
 * price level, behind the size displayed there, as Binance futures' modify docs say the modified
 * order is "re-sorted in the matching queue" (the public venue docs do not say; some venues keep
 * the place of a qty decrease). A HOLD order is released to the market by its modification
 * (Keel's reading of HOLD). The order as amended must pass placement's qty and price checks
 * (`badQtyOrPrice`: minimum size, maxLimitSize / maxMarketSize, minNotional), or the amendment is
 * refused with 400001 and the order stays as it was: an order placed small and grown past
 * maxLimitSize, or shrunk under minNotional, is refused as the same order placed whole would be.
 * An amendment that would make a post-only
 * (GTX) order take is refused with 400001 and the order stays as it was (Keel's choice, as
 * placement refuses one: the public venue docs do not say; Binance, for one, cancels such an
 * order instead). An amendment that needs more initial margin than the order locked before, when
 * the available margin counting it would be negative, is refused with 401023 and the order stays
 * as it was: the same check as placement, so an order placed small and enlarged cannot carry
 * more than the same order placed whole. One that needs no more margin is accepted even on an
 * over-committed portfolio, as it only lowers the commitment. An order past its DAY / GTD expiry
 * time is final (401058), even while its expiry waits for a bar ({@link hasExpired}). A working
 * order that only reduces is trimmed to its position as a new one is (`trimAmendedToReducible`).
 * @param state - the venue
 * @param intent - the command
 */
export function modifyOrder(state: SimState, intent: ModifyOrderIntent): void {
  const order = findLive(state, intent.ref, intent.kind, intent.target);
  if (!order) return;
  const spec = state.opts.instruments.get(order.sym);
  if (!spec) return;
  const filledSome = !order.filled.isZero();
  if (
    intent.qty &&
    (!(filledSome ? intent.qty.gt(order.filled) : isAboveZero(intent.qty)) ||
      !isOnStep(intent.qty, spec.lotSize))
  ) {
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
    (order.orderType === 'MARKET' || !isAboveZero(intent.price) || !isOnStep(intent.price, spec.tickSize))
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
  const badSize = badQtyOrPrice(
    { orderType: order.orderType, qty: intent.qty ?? order.qty, price: intent.price ?? order.price },
    spec,
  );
  if (badSize !== undefined) {
    rejectCommand(
      state,
      intent.ref,
      intent.kind,
      'BAD_PARAMETERS',
      `order ${intent.target} as modified: ${badSize}`,
    );
    return;
  }
  const priceN = asNumber(intent.price ?? order.price);
  if (takesAsPostOnly(state, order, priceN)) {
    rejectCommand(
      state,
      intent.ref,
      intent.kind,
      'BAD_PARAMETERS',
      `post-only (GTX) order would take liquidity at ${(intent.price ?? order.price).toFixed()}`,
    );
    return;
  }
  const priceChanged = intent.price !== undefined && differs(intent.price, priceN, order.price, order.priceN);
  const qtyChanged =
    intent.qty !== undefined && differs(intent.qty, asNumber(intent.qty), order.qty, asNumber(order.qty));
  // A held HOLD order waits for its owner's modification, which releases it whatever it changes.
  const releasesHold = !order.working && order.condition?.code === 'HOLD';
  if (!priceChanged && !qtyChanged && !releasesHold) {
    rejectCommand(
      state,
      intent.ref,
      intent.kind,
      'BAD_PARAMETERS',
      `modify changes nothing on order ${intent.target}`,
    );
    return;
  }
  // The terms before, kept to put the order back should the amendment be refused (rarely: no
  // record of them is made for an accepted one).
  const beforePrice = order.price;
  const beforePriceN = order.priceN;
  const beforeQty = order.qty;
  const beforeRemainingN = order.remainingN;
  if (intent.price) {
    order.price = intent.price;
    order.priceN = priceN;
  }
  if (intent.qty) {
    order.qty = intent.qty;
    order.remainingN = asNumber(minusAmount(intent.qty, order.filled));
    trimAmendedToReducible(state, order);
  }
  const refusal = marginRefusal(state, order);
  // Only an amendment locking more margin than the order did is refused: one lowering it is
  // accepted even on an over-committed portfolio.
  if (refusal !== undefined) {
    const before: Amendable = {
      price: beforePrice,
      priceN: beforePriceN,
      qty: beforeQty,
      remainingN: beforeRemainingN,
    };
    if (orderMargin(state, order).gt(orderMargin(state, { ...order, ...before }))) {
      Object.assign(order, before);
      rejectCommand(
        state,
        intent.ref,
        intent.kind,
        'INSUFFICIENT_MARGIN',
        `order ${intent.target} as modified ${refusalDetail(refusal)}`,
      );
      return;
    }
  }
  if (priceChanged || qtyChanged)
    order.amendType = priceChanged && qtyChanged ? 'PRICE_QTY' : priceChanged ? 'PRICE' : 'QTY';
  // Its new terms exist from now: on bars they meet only the bars that open after (bar-arrivals.ts).
  order.receivedAt = state.now;
  publishOrder(state, order, 'AMEND_COMPLETED');
  if (!order.working) {
    if (releasesHold) releaseHeld(state, order, 'HOLD order released by modification');
    return;
  }
  requeue(state, order);
}

/**
 * Cancels one order. It takes effect when the command arrives (after order-entry latency); if a
 * fill completed the order first, or its DAY / GTD expiry time has passed (see {@link hasExpired}),
 * the cancel is refused with 401058.
 * @param state - the venue
 * @param intent - the command
 */
export function cancelOrder(state: SimState, intent: CancelOrderIntent): void {
  const order = findLive(state, intent.ref, intent.kind, intent.target);
  if (order) finishOrder(state, order, 'CANCELLED', 'CANCEL_COMPLETED', 'USER');
}

/**
 * Cancels the listed orders, or every open order on a sym (or everywhere). Unknown or final targets
 * (an order past its expiry time included) are skipped silently, like a batch cancel (Keel's choice).
 * @param state - the venue
 * @param intent - the command
 */
export function cancelOrders(state: SimState, intent: CancelOrdersIntent): void {
  const targets = intent.targets
    ? intent.targets.map((ref) => state.ordersByRef.get(ref)).filter((o): o is SimOrder => o !== undefined)
    : [...state.liveOrders].filter((o) => intent.sym === undefined || o.sym === intent.sym);
  for (const order of targets) {
    if (isLive(order) && !order.liquidation && !hasExpired(state, order))
      finishOrder(state, order, 'CANCELLED', 'CANCEL_COMPLETED', 'USER');
  }
}
