import type {
  CancelAlgoOrderIntent,
  CancelAllAlgoOrdersIntent,
  Dec,
  PlaceAlgoOrderIntent,
  ReplaceAlgoOrderIntent,
} from '../../core/model/index.ts';
import { asNumber } from '../../core/model/index.ts';
import { rejectCommand } from './command-rejection.ts';
import { algoRefTaken, retireFinalAlgo } from './final-order-retention.ts';
import { badParameter, type OrderParameters } from './order-parameters.ts';
import { publishAlgo } from './publish.ts';
import { nextId, type SimAlgo, type SimState } from './sim-state.ts';
import { venueNow } from './venue-time.ts';

/** The fields an algo order is opened with (the venue adds its id, state and times). */
export type NewAlgo = Pick<
  SimAlgo,
  | 'clientAlgoOrderId'
  | 'sym'
  | 'side'
  | 'algoOrderType'
  | 'conditionType'
  | 'triggerType'
  | 'triggerPrice'
  | 'price'
  | 'qty'
  | 'reduceOnly'
  | 'positionSide'
  | 'attachedOrderId'
>;

/**
 * Opens an algo order (NEW) and publishes it.
 * @param state - the venue
 * @param fields - what the algo order is
 * @returns the opened algo order, with its venue id
 */
export function openAlgo(state: SimState, fields: NewAlgo): SimAlgo {
  const algo: SimAlgo = {
    ...fields,
    algoOrderId: nextId(state, 'A'),
    triggerN: asNumber(fields.triggerPrice),
    state: 'NEW',
    createAt: state.now,
    receivedAt: venueNow(state),
    updateAt: state.now,
  };
  state.algos.set(algo.algoOrderId, algo);
  state.algosByRef.set(algo.clientAlgoOrderId, algo);
  publishAlgo(state, algo);
  return algo;
}

/**
 * The kind of order an algo order sends when it fires: a market order (IOC) at price 0, else a GTC
 * limit order at its price.
 * @param price - the algo order's price
 * @returns the child's order type and time in force
 */
export function childOrderKind(price: Dec): Pick<OrderParameters, 'orderType' | 'timeInForce'> {
  return price.isZero()
    ? { orderType: 'MARKET', timeInForce: 'IOC' }
    : { orderType: 'LIMIT', timeInForce: 'GTC' };
}

/**
 * Refuses (400001) an algo order, as placed or as a replace would leave it, whose trigger price is
 * not positive or whose child order would fail order entry's parameter checks (lot, minimum size,
 * tick of a non-zero price, max sizes, minNotional, positionSide against the position mode).
 * @param state - the venue
 * @param intent - the place or replace command
 * @param algo - the algo order as it would be (a replace's fields over the open one)
 * @returns true when the command was refused
 */
function refusedParameters(
  state: SimState,
  intent: PlaceAlgoOrderIntent | ReplaceAlgoOrderIntent,
  algo: Pick<SimAlgo, 'sym' | 'qty' | 'price' | 'triggerPrice' | 'positionSide'>,
): boolean {
  const spec = state.opts.instruments.get(algo.sym);
  const bad = !algo.triggerPrice.gt(0)
    ? 'triggerPrice must be positive'
    : spec && badParameter(state, { ...algo, ...childOrderKind(algo.price) }, spec);
  if (!bad) return false;
  rejectCommand(state, intent.ref, intent.kind, 'BAD_PARAMETERS', bad);
  return true;
}

/**
 * Places a venue algo order (trigger on mark or last price, GTE / LTE).
 * @param state - the venue
 * @param intent - the command
 */
export function placeAlgoOrder(state: SimState, intent: PlaceAlgoOrderIntent): void {
  if (!state.opts.instruments.has(intent.sym)) {
    rejectCommand(state, intent.ref, intent.kind, 'BAD_SYMBOL', intent.sym);
    return;
  }
  if (algoRefTaken(state, intent.ref)) {
    rejectCommand(state, intent.ref, intent.kind, 'DUPLICATE_CLIENT_ORDER_ID', intent.ref);
    return;
  }
  if (refusedParameters(state, intent, intent)) return;
  openAlgo(state, { ...intent, clientAlgoOrderId: intent.ref });
}

function findOpen(
  state: SimState,
  ref: string,
  kind: 'replaceAlgoOrder' | 'cancelAlgoOrder',
  target: string,
): SimAlgo | undefined {
  const algo = state.algosByRef.get(target);
  if (!algo) {
    const forgotten = state.forgottenAlgoStates.get(target);
    if (forgotten !== undefined)
      rejectCommand(state, ref, kind, 'ORDER_ALREADY_FINAL', `algo order ${target} is ${forgotten}`);
    else rejectCommand(state, ref, kind, 'ORDER_NOT_FOUND', `no algo order ${target}`);
    return undefined;
  }
  if (algo.state !== 'NEW') {
    rejectCommand(state, ref, kind, 'ORDER_ALREADY_FINAL', `algo order ${target} is ${algo.state}`);
    return undefined;
  }
  return algo;
}

function changes(next: Dec | undefined, before: Dec): boolean {
  return next !== undefined && !next.eq(before);
}

/**
 * Replaces an open algo order's trigger, price or quantity. One that changes none of them (none
 * given, or each as it is) is refused with 400001, as a modify of an order is (Keel's choice for
 * algo orders: the spec names no rule; the venue docs refuse an order's no-op modify).
 * @param state - the venue
 * @param intent - the command
 */
export function replaceAlgoOrder(state: SimState, intent: ReplaceAlgoOrderIntent): void {
  const algo = findOpen(state, intent.ref, intent.kind, intent.target);
  if (!algo) return;
  if (
    !changes(intent.triggerPrice, algo.triggerPrice) &&
    !changes(intent.price, algo.price) &&
    !changes(intent.qty, algo.qty)
  ) {
    rejectCommand(
      state,
      intent.ref,
      intent.kind,
      'BAD_PARAMETERS',
      `modify changes nothing on algo order ${intent.target}`,
    );
    return;
  }
  const replaced = {
    sym: algo.sym,
    positionSide: algo.positionSide,
    triggerPrice: intent.triggerPrice ?? algo.triggerPrice,
    price: intent.price ?? algo.price,
    qty: intent.qty ?? algo.qty,
  };
  if (refusedParameters(state, intent, replaced)) return;
  if (intent.triggerPrice) {
    algo.triggerPrice = intent.triggerPrice;
    algo.triggerN = asNumber(intent.triggerPrice);
  }
  if (intent.price) algo.price = intent.price;
  if (intent.qty) algo.qty = intent.qty;
  algo.receivedAt = state.now;
  publishAlgo(state, algo);
}

/**
 * Cancels an open algo order.
 * @param state - the venue
 * @param algo - the algo order
 */
export function cancelAlgo(state: SimState, algo: SimAlgo): void {
  state.algos.delete(algo.algoOrderId);
  retireFinalAlgo(state, algo);
  algo.state = 'CANCELLED';
  publishAlgo(state, algo);
}

/**
 * Cancels one algo order.
 * @param state - the venue
 * @param intent - the command
 */
export function cancelAlgoOrder(state: SimState, intent: CancelAlgoOrderIntent): void {
  const algo = findOpen(state, intent.ref, intent.kind, intent.target);
  if (algo) cancelAlgo(state, algo);
}

/**
 * Cancels all open algo orders, optionally of one sym or type.
 * @param state - the venue
 * @param intent - the command
 */
export function cancelAllAlgoOrders(state: SimState, intent: CancelAllAlgoOrdersIntent): void {
  for (const algo of [...state.algos.values()]) {
    if (intent.sym !== undefined && algo.sym !== intent.sym) continue;
    if (intent.algoOrderType !== undefined && algo.algoOrderType !== intent.algoOrderType) continue;
    cancelAlgo(state, algo);
  }
}
