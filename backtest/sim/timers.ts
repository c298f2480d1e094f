import { parseTimeToSend } from '../../core/model/index.ts';
import { noteVenueWork } from './early-span-work.ts';
import { finishOrder } from './fills.ts';
import { settleFunding } from './funding.ts';
import { accrueInterest, nextAccrual } from './loans.ts';
import { watchMargin } from './margin-watch.ts';
import { isLive } from './order-factory.ts';
import type { SimState } from './sim-state.ts';
import { releaseHeld } from './triggers.ts';

/**
 * Fires what is due at the current virtual time: DAY / GTD expiries (CANCELLED with action EXPIRE,
 * stamped with the expiry time even when, on bars, the expiry waited for its bar to be matched),
 * TIME orders whose timeToSend has come, perpetual funding (on the positions held at the funding
 * time, at the last mark before it), hourly loan interest; then, when funding or interest moved
 * equity or a released TIME order filled, checks the margin as a market event does
 * (`watchMargin`), so a charge or fill that takes equity below maintenance starts the liquidation
 * at this time, not at the next market event, which may be hours away or never come; then finds
 * the next deadline.
 * Called only when `state.now >= state.deadline`, so the per-event cost is one comparison.
 * @param state - the venue
 */
export function runTimers(state: SimState): void {
  let next = Number.POSITIVE_INFINITY;
  let charged = false;
  const fills = state.fills;
  state.deadline = Number.POSITIVE_INFINITY;
  for (const order of [...state.liveOrders]) {
    if (!isLive(order)) continue;
    if (order.expireAt <= state.now) {
      noteVenueWork(
        state,
        state.now,
        order.sym,
        `the expiry of ${order.timeInForce} order ${order.clientOrderId}`,
        true,
      );
      // Stamped when it ended: on bars the expiry may have waited for the bar whose span holds it.
      finishOrder(state, order, 'CANCELLED', 'EXPIRE', 'EXPIRED', order.expireAt);
      continue;
    }
    next = Math.min(next, order.expireAt);
  }
  for (const order of [...state.held]) {
    if (order.condition?.code !== 'TIME') continue;
    const due = parseTimeToSend(order.condition.timeToSend ?? '');
    if (due <= state.now) {
      noteVenueWork(state, state.now, order.sym, `the release of TIME order ${order.clientOrderId}`, true);
      releaseHeld(state, order, `TIME order sent at ${order.condition.timeToSend}`);
    } else next = Math.min(next, due);
  }
  for (const [sym, market] of state.markets) {
    const due = market.nextFundingTime;
    if (Number.isNaN(due) || market.fundingSettledAt === due) continue;
    // Just after the funding time, so a mark stamped at it is folded first and counts (onMarket
    // settles a funding time its own event reaches).
    if (due < state.now) charged = settleFunding(state, sym, market) || charged;
    else next = Math.min(next, due + 1);
  }
  // One hour at a time (the earliest due), the margin checked after it: on a bar longer than an
  // hour the timers catch up at its close, and each hour's charge is its own.
  charged = accrueInterest(state, Math.min(state.now, nextAccrual(state))) || charged;
  if (charged || state.fills !== fills) watchMargin(state);
  state.deadline = Math.min(state.deadline, next, nextAccrual(state));
}
