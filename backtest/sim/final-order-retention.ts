import type { SimOrder } from './sim-order.ts';
import type { SimAlgo, SimState } from './sim-state.ts';

/**
 * How many final orders the venue keeps whole (Keel's choice, like the kernel's order registry):
 * beyond it the oldest are forgotten, so a long run's memory does not grow with every order.
 */
export const RETAIN_FINAL_ORDERS = 10_000;

/**
 * Records that an order became final; forgets the oldest final order once more than
 * {@link RETAIN_FINAL_ORDERS} are kept. A forgotten order keeps only its clientOrderId and final
 * state: a new order reusing the reference is still a duplicate and a modify or cancel of it still
 * finds it final, but lookupOrder answers unknown for it.
 * @param state - the venue
 * @param order - the order, just final
 */
export function retireFinalOrder(state: SimState, order: SimOrder): void {
  state.finalOrders.push(order);
  if (state.finalOrders.length - state.finalHead <= RETAIN_FINAL_ORDERS) return;
  const old = state.finalOrders[state.finalHead++] as SimOrder;
  if (state.ordersById.get(old.orderId) === old) state.ordersById.delete(old.orderId);
  if (state.ordersByRef.get(old.clientOrderId) === old) {
    state.ordersByRef.delete(old.clientOrderId);
    state.forgottenStates.set(old.clientOrderId, old.state);
  }
  if (state.finalHead >= RETAIN_FINAL_ORDERS) {
    state.finalOrders.splice(0, state.finalHead);
    state.finalHead = 0;
  }
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
  state.finalAlgos.push(algo);
  if (state.finalAlgos.length - state.finalAlgoHead <= RETAIN_FINAL_ORDERS) return;
  const old = state.finalAlgos[state.finalAlgoHead++] as SimAlgo;
  if (state.algosByRef.get(old.clientAlgoOrderId) === old) {
    state.algosByRef.delete(old.clientAlgoOrderId);
    state.forgottenAlgoStates.set(old.clientAlgoOrderId, old.state);
  }
  if (state.finalAlgoHead >= RETAIN_FINAL_ORDERS) {
    state.finalAlgos.splice(0, state.finalAlgoHead);
    state.finalAlgoHead = 0;
  }
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
