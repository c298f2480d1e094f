import type { SimOrder } from './sim-order.ts';
import type { SimState } from './sim-state.ts';

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
