import { asNumber, ZERO } from '../../core/model/index.ts';
import { childOrderKind } from './algo-orders.ts';
import { noteVenueWork } from './early-span-work.ts';
import { finishOrder } from './fills.ts';
import { retireFinalAlgo } from './final-order-retention.ts';
import { freeOrderRef } from './generated-refs.ts';
import { markPriceOf } from './market-state.ts';
import { marketOf, workOrder, wouldTake } from './matching.ts';
import { createOrder } from './order-factory.ts';
import { publishAlgo, publishOrder } from './publish.ts';
import { marginCheckRefusal, reduceOnlyRefusal, sendRefusal } from './send-checks.ts';
import { rejectionReason } from './sim-errors.ts';
import type { SimOrder } from './sim-order.ts';
import type { SimAlgo, SimState } from './sim-state.ts';
import { dropOrphanedLegs, isOrphanedLeg } from './tp-sl-attachments.ts';
import { venueNow } from './venue-time.ts';

/** A price level crossed upwards (`up`) or downwards. */
interface Level {
  readonly up: boolean;
  readonly price: number;
}

/**
 * The price at which a level is reached over a segment, or NaN when it is not: the level itself, or
 * the segment's start when the price was already past it (a gap).
 */
function reachedAt(level: Level, from: number, to: number): number {
  if (level.up) {
    if (Math.max(from, to) < level.price) return Number.NaN;
    return Math.max(from, level.price);
  }
  if (Math.min(from, to) > level.price) return Number.NaN;
  return Math.min(from, level.price);
}

/**
 * The trigger levels of a held conditional order (spec conditionCode; Keel's interpretation):
 * - UT (up-trigger): sent when the last price rises to triggerPrice;
 * - DT (down-trigger): sent when the last price falls to triggerPrice;
 * - SL (stop-loss): a stop: a SELL is sent when the price falls to triggerPrice, a BUY when it rises;
 * - OCO: one order with two triggers, whichever comes first sends it: for a SELL the price rising to
 *   triggerPrice (take profit) or falling to stopPrice (stop); mirrored for a BUY;
 * - TIME: sent at timeToSend (a timer, not a price); HOLD: held until the owner modifies it, which
 *   releases it to the market (no price trigger).
 */
function levelsOf(order: SimOrder): readonly Level[] {
  const condition = order.condition;
  const triggerPrice = condition?.triggerPrice;
  const trigger = triggerPrice === undefined ? Number.NaN : asNumber(triggerPrice);
  switch (condition?.code) {
    case 'UT':
      return [{ up: true, price: trigger }];
    case 'DT':
      return [{ up: false, price: trigger }];
    case 'SL':
      return [{ up: order.side === 'BUY', price: trigger }];
    case 'OCO': {
      const stop = condition.stopPrice === undefined ? Number.NaN : asNumber(condition.stopPrice);
      return [
        { up: order.side === 'SELL', price: trigger },
        { up: order.side === 'BUY', price: stop },
      ];
    }
    default:
      return [];
  }
}

/**
 * Releases a held conditional order to the market (trigger fired, TIME reached, HOLD modified). It
 * is sent then (spec conditionCode), so it meets the checks a new order meets on arrival
 * (`sendRefusal`: reduce-only, margin at the price it is released at) and, refused, ends REJECTED
 * with the code and detail in its reason, as an order the margin check refuses at its fill price
 * does: the venue had accepted it, so it keeps its id. A post-only (GTX) one that would take
 * liquidity there is cancelled instead (cancelType GTX). It stays NEW until it rests on the book
 * (OPEN), as a newly placed order does: one that fills at once never shows OPEN.
 * @param state - the venue
 * @param order - a held order
 * @param message - why it was released, reported in actionMsg
 */
export function releaseHeld(state: SimState, order: SimOrder, message: string): void {
  const index = state.held.indexOf(order);
  if (index >= 0) state.held.splice(index, 1);
  order.actionMsg = message;
  const refusal = sendRefusal(state, order);
  if (refusal !== undefined) {
    order.reason = rejectionReason(refusal.name, refusal.detail);
    finishOrder(state, order, 'REJECTED', 'REJECT');
    return;
  }
  if (order.timeInForce === 'GTX' && wouldTake(state, order)) {
    // A post-only order never takes: released where it would, it is cancelled, as one meeting its
    // sym's first price is (fillWaiting). Order entry could not check it while it was held.
    order.actionMsg = `${order.actionMsg}; post-only (GTX) order would take liquidity`;
    finishOrder(state, order, 'CANCELLED', 'CANCEL_COMPLETED', 'GTX');
    return;
  }
  workOrder(state, order);
  // Its work reported the release (OPEN when it rests, its fills, or its cancel), each update with
  // the message. One waiting for a first price is still NEW: say it was released all the same.
  if (order.state === 'NEW') publishOrder(state, order, 'PLACE');
}

function algoLevel(algo: SimAlgo): Level {
  return { up: algo.conditionType === 'GTE', price: algo.triggerN };
}

/**
 * Fires an algo order: it becomes a market order (price 0) or a GTC limit order, and its tp / sl
 * sibling is cancelled. A tp / sl attachment whose position is gone is cancelled instead, with its
 * sibling (`tp-sl-attachments.ts`). The child meets the reduce-only check and the margin check a
 * new order meets (a reduce-only one needs no margin): one that only reduces is trimmed to its
 * position; when it has nothing to reduce (401097) or the margin cannot carry it (401023), the
 * child is rejected and the algo order ends FAILED (its sibling stays open: it still protects the
 * position).
 * @param state - the venue
 * @param algo - an open algo order whose trigger was reached
 */
export function fireAlgo(state: SimState, algo: SimAlgo): void {
  if (isOrphanedLeg(state, algo)) {
    // Its position went flat by a part fill of an order still open: no order ended to drop it.
    dropOrphanedLegs(state, algo.sym);
    return;
  }
  state.algos.delete(algo.algoOrderId);
  retireFinalAlgo(state, algo);
  const kind = childOrderKind(algo.price);
  const order = createOrder(state, {
    clientOrderId: freeOrderRef(state, `${algo.clientAlgoOrderId}-trig`, () => `${algo.algoOrderId}-trig`),
    sym: algo.sym,
    side: algo.side,
    ...kind,
    qty: algo.qty,
    price: kind.orderType === 'MARKET' ? ZERO : algo.price,
    reduceOnly: algo.reduceOnly,
    positionSide: algo.positionSide,
    algoOrderId: algo.algoOrderId,
  });
  algo.orderId = order.orderId;
  // Sent now, it meets a new order's reduce-only check (401097, or trimmed to the position), then
  // the margin check that an order only reducing does not need.
  const refusal =
    reduceOnlyRefusal(state, order) ?? (algo.reduceOnly ? undefined : marginCheckRefusal(state, order));
  if (refusal !== undefined) {
    algo.state = 'FAILED';
    publishAlgo(state, algo);
    order.reason = rejectionReason(refusal.name, refusal.detail);
    finishOrder(state, order, 'REJECTED', 'REJECT');
    return;
  }
  algo.state = 'TRIGGERED';
  publishAlgo(state, algo);
  const sibling = algo.sibling === undefined ? undefined : state.algos.get(algo.sibling);
  if (sibling) {
    state.algos.delete(sibling.algoOrderId);
    retireFinalAlgo(state, sibling);
    sibling.state = 'CANCELLED';
    publishAlgo(state, sibling);
  }
  publishOrder(state, order, 'PLACE');
  workOrder(state, order);
}

/** A trigger a segment of a bar's path reaches: a held conditional order or an open algo order. */
export interface DueTrigger {
  /** Where along the segment it is reached: its level, or the current price when already past it. */
  readonly at: number;
  /** The held order it releases, when it is one. */
  readonly held: SimOrder | undefined;
  /** The algo order it fires, when it is one. */
  readonly algo: SimAlgo | undefined;
}

/** Whether a level stops a loss: a SELL sent as the price falls, a BUY as it rises. */
function isStop(level: Level, side: 'BUY' | 'SELL'): boolean {
  return level.up === (side === 'BUY');
}

/**
 * The trigger of a sym that the price, moving from `from` to `to` along a bar's path, reaches
 * first. On a tie (two levels at one price, or several already passed) a stop comes before a
 * take-profit, the conservative order; then held orders before algo orders, each in creation order.
 * An algo order triggered by the mark price follows the marks once the recording has given one
 * for the sym ({@link checkMarkTriggers}); before that it uses this path (Keel's choice: bars carry
 * no mark, and the last price is the mark of a recording without one).
 * @param state - the venue
 * @param sym - the symbol
 * @param from - the current price on the path
 * @param to - the end of the segment
 * @param late - held orders and algo orders received after the bar's cutoff: not reached
 * @returns the first trigger reached, or undefined when none is
 */
export function firstTrigger(
  state: SimState,
  sym: string,
  from: number,
  to: number,
  late: ReadonlySet<unknown>,
): DueTrigger | undefined {
  // Plain loops, no closure: with tp / sl pairs open this runs for every stretch of every bar.
  let best: DueTrigger | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  let bestStop = false;
  const marked = !Number.isNaN(marketOf(state, sym).mark);
  for (const order of state.held) {
    if (order.sym !== sym || late.has(order)) continue;
    for (const level of levelsOf(order)) {
      const at = reachedAt(level, from, to);
      const stop = isStop(level, order.side);
      if (!comesFirst(at, from, stop, bestDistance, bestStop)) continue;
      best = { at, held: order, algo: undefined };
      bestDistance = Math.abs(at - from);
      bestStop = stop;
    }
  }
  for (const algo of state.algos.values()) {
    if (algo.sym !== sym || late.has(algo) || (marked && algo.triggerType === 'MarkPrice')) continue;
    const level = algoLevel(algo);
    const at = reachedAt(level, from, to);
    const stop = isStop(level, algo.side);
    if (!comesFirst(at, from, stop, bestDistance, bestStop)) continue;
    best = { at, held: undefined, algo };
    bestDistance = Math.abs(at - from);
    bestStop = stop;
  }
  return best;
}

/** Whether a level reached at `at` (NaN = not reached) comes before the best one found so far. */
function comesFirst(
  at: number,
  from: number,
  stop: boolean,
  bestDistance: number,
  bestStop: boolean,
): boolean {
  if (Number.isNaN(at)) return false;
  const distance = Math.abs(at - from);
  return distance < bestDistance || (distance === bestDistance && stop && !bestStop);
}

/**
 * Fires a trigger found by {@link firstTrigger}: releases its held order or fires its algo order
 * (the caller has moved the last price to where it was reached).
 * @param state - the venue
 * @param due - the trigger
 */
export function fireTrigger(state: SimState, due: DueTrigger): void {
  if (due.held) releaseHeld(state, due.held, `condition ${due.held.condition?.code} triggered at ${due.at}`);
  else if (due.algo) fireAlgo(state, due.algo);
}

/**
 * Checks the held conditional orders and open algo orders of a sym at the last price (quote, book
 * and trade fill models; bars walk their path with {@link firstTrigger}): last-price triggers
 * against it; mark-price triggers against the mark when the venue sends one, else the last price
 * (Keel's choice for mark-less recordings). Only orders the venue had received by the event's
 * `venueTimeOf` (`venueNow`) are checked: a print from before one arrived does not trigger it; a
 * quote's price, standing when it arrived, does.
 * @param state - the venue
 * @param sym - the symbol whose price moved
 * @param last - its last price
 */
export function checkTriggers(state: SimState, sym: string, last: number): void {
  if (state.held.length === 0 && state.algos.size === 0) return;
  const at = venueNow(state);
  if (state.held.length > 0) {
    for (const order of state.held.filter((o) => o.sym === sym && o.receivedAt <= at)) {
      for (const level of levelsOf(order)) {
        const at = reachedAt(level, last, last);
        if (Number.isNaN(at)) continue;
        releaseHeld(state, order, `condition ${order.condition?.code} triggered at ${at}`);
        break;
      }
    }
  }
  if (state.algos.size > 0) {
    const mark = markPriceOf(marketOf(state, sym));
    const due: SimAlgo[] = [];
    for (const algo of state.algos.values()) {
      if (algo.sym !== sym || algo.receivedAt > at) continue;
      const price = algo.triggerType === 'MarkPrice' && !Number.isNaN(mark) ? mark : last;
      if (!Number.isNaN(reachedAt(algoLevel(algo), price, price))) due.push(algo);
    }
    for (const algo of due) {
      // A tp / sl sibling fired earlier in this loop cancels this one.
      if (algo.state === 'NEW') fireAlgo(state, algo);
    }
  }
}

/**
 * Fires the mark-price algo orders of a sym that a new mark reached, on the bar fill model (bar
 * paths carry last prices, not marks): "with a mark channel, the marks decide", as for
 * liquidation. The order an algo order sends then arrives inside a bar, so it meets the sym's
 * next bar (a market order at its open). A mark is the venue's state until the next one: an algo
 * order that arrived after it was stamped met it standing (see `venueTimeOf`).
 * @param state - the venue
 * @param sym - the symbol whose mark moved
 * @param mark - the new mark
 */
export function checkMarkTriggers(state: SimState, sym: string, mark: number): void {
  if (state.algos.size === 0) return;
  const due: SimAlgo[] = [];
  for (const algo of state.algos.values()) {
    if (algo.sym !== sym || algo.triggerType !== 'MarkPrice') continue;
    if (!Number.isNaN(reachedAt(algoLevel(algo), mark, mark))) due.push(algo);
  }
  for (const algo of due) {
    // A tp / sl sibling fired earlier in this loop cancels this one.
    if (algo.state !== 'NEW') continue;
    noteVenueWork(state, state.now, sym, `the mark trigger of algo order ${algo.clientAlgoOrderId}`, true);
    fireAlgo(state, algo);
  }
}
