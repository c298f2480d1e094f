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
 * {@link RETAIN_FINAL_ORDERS} are kept. A forgotten order keeps only its clientOrderId and final
 * state: a new order reusing the reference is still a duplicate and a modify or cancel of it still
 * finds it final, but lookupOrder answers unknown for it.
 * @param state - the venue
 * @param order - the order, just final
 */
export function retireFinalOrder(state: SimState, order: SimOrder): void {
  retire(state.finalOrders, order, (old) => {
    if (state.ordersByRef.get(old.clientOrderId) === old) {
      state.ordersByRef.delete(old.clientOrderId);
      state.forgottenStates.set(old.clientOrderId, old.state);
    }
  });
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
