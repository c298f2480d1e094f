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
 * On the bar fill model a sym's own timers (expiry, TIME release, funding) after the open of its
 * bar not yet matched wait for that bar, whatever other syms' bars came first (`waitsForBar`);
 * `rearmAfterBar` brings them back once it moved on. Loan interest is the portfolio's, of no
 * sym: it waits only for the bar being delivered (the caller's `timersUntil`).
 * Called only when `state.now >= state.deadline`, so the per-event cost is one comparison.
 * @param state - the venue
 */
export function runTimers(state: SimState): void {
  let next = Number.POSITIVE_INFINITY;
  let charged = false;
  const fills = state.fills;
  state.deadline = Number.POSITIVE_INFINITY;
  for (const order of [...state.liveOrders]) {
    if (!isLive(order) || waitsForBar(state, order.sym, order.expireAt)) continue;
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
    if (waitsForBar(state, order.sym, due)) continue;
    if (due <= state.now) {
      noteVenueWork(state, state.now, order.sym, `the release of TIME order ${order.clientOrderId}`, true);
      releaseHeld(state, order, `TIME order sent at ${order.condition.timeToSend}`);
    } else next = Math.min(next, due);
  }
  for (const [sym, market] of state.markets) {
    const due = market.nextFundingTime;
    if (Number.isNaN(due) || market.fundingSettledAt === due || waitsForBar(state, sym, due + 1)) continue;
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

/**
 * Whether a timer of `sym` due at `at` waits for a bar of that sym the venue has yet to match:
 * the bar's prices span its whole interval, so an order live at its open meets all of it before it
 * expires (a DAY order ending at 16:00 inside a daily bar), whether another sym's bar of the same
 * time was matched before it or not.
 * @param state - the venue
 * @param sym - the timer's sym
 * @param at - when the timer is due
 * @returns true while `at` is after the open of the sym's bar not yet matched
 */
function waitsForBar(state: SimState, sym: string, at: number): boolean {
  const pending = state.pendingBarOpen.get(sym);
  return pending !== undefined && at > pending.open;
}

/**
 * Moves the open of `sym`'s bar not yet matched to `open` (never back) and brings the sym's timers
 * it no longer holds back to the deadline, so they fire at their own time.
 * @param state - the venue, on the bar fill model
 * @param sym - the bar's sym
 * @param open - the open of the sym's next bar to match (a bar's open before it is matched, its close after)
 */
export function rearmAfterBar(state: SimState, sym: string, open: number): void {
  const pending = state.pendingBarOpen.get(sym);
  const before = pending === undefined ? Number.NEGATIVE_INFINITY : pending.open;
  if (open <= before) return;
  if (pending === undefined) state.pendingBarOpen.set(sym, { open });
  else pending.open = open;
  let next = state.deadline;
  for (const order of state.liveOrders) {
    if (order.sym === sym && isLive(order) && order.expireAt > before) next = Math.min(next, order.expireAt);
  }
  for (const order of state.held) {
    if (order.sym !== sym || order.condition?.code !== 'TIME') continue;
    const due = parseTimeToSend(order.condition.timeToSend ?? '');
    if (due > before) next = Math.min(next, due);
  }
  const market = state.markets.get(sym);
  if (
    market !== undefined &&
    !Number.isNaN(market.nextFundingTime) &&
    market.fundingSettledAt !== market.nextFundingTime
  )
    next = Math.min(next, market.nextFundingTime + 1);
  state.deadline = next;
}
