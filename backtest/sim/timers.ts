import { finishOrder } from './fills.ts';
import { accrueInterest, nextAccrual } from './loans.ts';
import { isLive } from './order-factory.ts';
import type { SimState } from './sim-state.ts';
import { parseTimeToSend } from './time-to-send.ts';
import { releaseHeld } from './triggers.ts';

/**
 * Fires what is due at the current virtual time: DAY / GTD expiries (CANCELLED with action EXPIRE),
 * TIME orders whose timeToSend has come, hourly loan interest; then finds the next deadline.
 * Called only when `state.now >= state.deadline`, so the per-event cost is one comparison.
 * @param state - the venue
 */
export function runTimers(state: SimState): void {
  let next = Number.POSITIVE_INFINITY;
  state.deadline = Number.POSITIVE_INFINITY;
  for (const order of [...state.liveOrders]) {
    if (!isLive(order)) continue;
    if (order.expireAt <= state.now) {
      finishOrder(state, order, 'CANCELLED', 'EXPIRE', 'EXPIRED');
      continue;
    }
    next = Math.min(next, order.expireAt);
  }
  for (const order of [...state.held]) {
    if (order.condition?.code !== 'TIME') continue;
    const due = parseTimeToSend(order.condition.timeToSend ?? '');
    if (due <= state.now) releaseHeld(state, order, `TIME order sent at ${order.condition.timeToSend}`);
    else next = Math.min(next, due);
  }
  accrueInterest(state);
  state.deadline = Math.min(state.deadline, next, nextAccrual(state));
}
