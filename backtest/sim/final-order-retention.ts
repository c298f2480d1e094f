import type { Order, OrderState } from '../../core/model/index.ts';
import { isLive } from './order-factory.ts';
import type { SimOrder } from './sim-order.ts';
import type { FinalQueue, SimAlgo, SimState } from './sim-state.ts';

/**
 * How many final orders the venue keeps whole (Keel's choice, like the kernel's order registry):
 * beyond it the oldest are forgotten, so a long run's memory does not grow with every order.
 */
export const RETAIN_FINAL_ORDERS = 10_000;

/**
 * Adds a thing that became final; once more than {@link RETAIN_FINAL_ORDERS} are kept, hands the
 * oldest to `forget`, compacting the queue when as many are forgotten.
 */
function retire<T>(queue: FinalQueue<T>, item: T, forget: (old: T) => void): void {
  queue.items.push(item);
  if (queue.items.length - queue.head <= RETAIN_FINAL_ORDERS) return;
  forget(queue.items[queue.head++] as T);
  if (queue.head >= RETAIN_FINAL_ORDERS) {
    queue.items.splice(0, queue.head);
    queue.head = 0;
  }
}

/**
 * Records that an order became final; forgets the oldest final order once more than
 * {@link RETAIN_FINAL_ORDERS} are kept. A final order is kept as the view its final state was
 * published with ({@link keepFinalView}), a forgotten one as its clientOrderId and final state: a
 * new order reusing the reference is still a duplicate and a modify or cancel of it still finds
 * it final, but lookupOrder answers unknown for a forgotten one. The queue holds references, not
 * orders, so a final order's record is garbage once its view is published.
 * @param state - the venue
 * @param order - the order, just final
 */
export function retireFinalOrder(state: SimState, order: SimOrder): void {
  retire(state.finalOrders, order.clientOrderId, (ref) => {
    const view = state.finalOrderViews.get(ref);
    if (view !== undefined) {
      state.finalOrderViews.delete(ref);
      state.forgottenStates.set(ref, view.orderState);
      return;
    }
    const old = state.ordersByRef.get(ref);
    if (old !== undefined && !isLive(old)) {
      state.ordersByRef.delete(ref);
      state.forgottenStates.set(ref, old.state);
    }
  });
}

/**
 * Keeps an order's view in place of the order once its final state is published: the view says
 * all a lookup answers (the order changes no more), and the order's own record (its working
 * fields, numbers and links) need not live on with the last {@link RETAIN_FINAL_ORDERS} final
 * orders. A run keeps the view anyway while it writes its results.
 * @param state - the venue
 * @param order - the order just published
 * @param view - the view published
 */
export function keepFinalView(state: SimState, order: SimOrder, view: Order): void {
  if (isLive(order)) return;
  const ref = order.clientOrderId;
  if (state.ordersByRef.get(ref) === order) state.ordersByRef.delete(ref);
  else if (!state.finalOrderViews.has(ref)) return;
  state.finalOrderViews.set(ref, view);
}

/**
 * The final state of an order that is final and no longer held as an order: kept as its view, or
 * forgotten.
 * @param state - the venue
 * @param ref - a clientOrderId
 * @returns its final state, undefined when no such final order is known
 */
export function finalStateOf(state: SimState, ref: string): OrderState | undefined {
  return state.finalOrderViews.get(ref)?.orderState ?? state.forgottenStates.get(ref);
}

/**
 * Whether an order holds a reference: live, final (kept as its view) or forgotten.
 * @param state - the venue
 * @param ref - a clientOrderId
 * @returns true when it is taken
 */
export function orderRefTaken(state: SimState, ref: string): boolean {
  return state.ordersByRef.has(ref) || state.finalOrderViews.has(ref) || state.forgottenStates.has(ref);
}

/**
 * Records that an algo order became final (triggered, cancelled or failed); forgets the oldest
 * final algo order once more than {@link RETAIN_FINAL_ORDERS} are kept, as for orders: a forgotten
 * one keeps only its clientAlgoOrderId and final state, so a new algo order reusing the reference
 * is still a duplicate and a replace or cancel of it still finds it final.
 * @param state - the venue
 * @param algo - the algo order, just taken off the open ones
 */
export function retireFinalAlgo(state: SimState, algo: SimAlgo): void {
  retire(state.finalAlgos, algo, (old) => {
    if (state.algosByRef.get(old.clientAlgoOrderId) === old) {
      state.algosByRef.delete(old.clientAlgoOrderId);
      state.forgottenAlgoStates.set(old.clientAlgoOrderId, old.state);
    }
  });
}

/**
 * Whether an algo order holds a reference, kept whole or forgotten.
 * @param state - the venue
 * @param ref - a clientAlgoOrderId
 * @returns true when it is taken
 */
export function algoRefTaken(state: SimState, ref: string): boolean {
  return state.algosByRef.has(ref) || state.forgottenAlgoStates.has(ref);
}
