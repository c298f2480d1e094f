import type { BarEvent } from '../../core/model/index.ts';
import { arrivalCutoff, type LateArrivals, restoreLate, setLateAside } from './bar-arrivals.ts';
import { takeBar } from './bar-coverage.ts';
import { liquidateInBar, liquidationPointOn, mayLiquidateWithin, tickPast } from './bar-liquidation.ts';
import { checkBarSpan, venueWorkNoted } from './early-span-work.ts';
import { executeFill } from './fills.ts';
import { priceDecimalOf, type SymMarket } from './market-state.ts';
import { fillWaiting, marketOf } from './matching.ts';
import { remainderOf, type SimOrder } from './sim-order.ts';
import type { SimState } from './sim-state.ts';
import { positionsOf } from './spot-holdings.ts';
import { type DueTrigger, fireTrigger, firstTrigger } from './triggers.ts';

/**
 * The assumed path of prices inside a bar: open, then the extreme ADVERSE to the account's net
 * position on the sym once the open's fills are done (low first when long, high first when
 * short), then the other extreme, then close. So when a stop and a take-profit could both trigger
 * within one bar, the stop is assumed first: the conservative order. When flat, the extreme nearer
 * the open comes first (low on a tie).
 * @param bar - a closed bar
 * @param netQty - the account's net position on the sym after the fills at the open (sign only)
 * @returns four prices
 */
export function barPath(bar: BarEvent, netQty: number): readonly [number, number, number, number] {
  let lowFirst: boolean;
  if (netQty > 0) lowFirst = true;
  else if (netQty < 0) lowFirst = false;
  else lowFirst = bar.open - bar.low <= bar.high - bar.open;
  return lowFirst ? [bar.open, bar.low, bar.high, bar.close] : [bar.open, bar.high, bar.low, bar.close];
}

function netQtyOf(state: SimState, sym: string): number {
  let net = 0;
  for (const position of positionsOf(state, sym).values()) if (position.sym === sym) net += position.qtyN;
  return net;
}

/** One bar being replayed: its sym's market and whether its range may reach a liquidation. */
interface BarWalk {
  readonly state: SimState;
  readonly market: SymMarket;
  readonly bar: BarEvent;
  /** What the venue received after the bar's cutoff: it sits this bar out. */
  readonly late: LateArrivals;
  /** The number screen of {@link mayLiquidateWithin}, refreshed whenever a fill changes positions. */
  atRisk: boolean;
}

/**
 * Replays a closed bar. Only what the venue received by the bar's cutoff takes part
 * ({@link arrivalCutoff}): an order, algo order or amendment received later was not there when the
 * bar opened and waits for the sym's next bar. A bar coarser than bars of the sym already matched
 * is passed over ({@link takeBar}). Parked market orders fill at the open; then the open itself is
 * walked (a trigger or limit the bar opened through fills there, at the open). These fills are
 * stamped at the bar's open time ({@link openMoment}); fills inside the bar at its close, as bar
 * data cannot say when inside the bar a price came. Only then is the path chosen
 * ({@link barPath}), from the position those fills left, and its three segments are walked.
 *
 * Inside a segment the price moves monotonically, and everything it reaches happens in the order
 * it is reached ({@link walkSegment}). The path is not chosen again when a fill inside the bar
 * changes the position: a resting limit fills while the price moves against the position it
 * opens, and the segment carries on against it, so a stop it attaches is reached before any
 * reversal; a stop entry fills moving its own way, and the model invents no reversal the bar's
 * four prices do not show. Orders and algo orders the bar itself creates (triggered orders, tp /
 * sl attachments) take part in the rest of it.
 * @param state - the venue
 * @param bar - the bar event
 */
export function matchBar(state: SimState, bar: BarEvent): void {
  if (!bar.closed) return;
  const previousRecvTs = takeBar(state, bar);
  if (previousRecvTs === undefined) return;
  const market = marketOf(state, bar.sym);
  const close = state.now;
  market.last = bar.open;
  if (nothingLive(state) && !mayLiquidateWithin(state, market, bar.sym, bar.low, bar.high)) {
    passBar(state, market, bar, previousRecvTs);
    return;
  }
  const cutoff = arrivalCutoff(state, bar, previousRecvTs);
  const noted = venueWorkNoted(state);
  const late = setLateAside(state, bar, cutoff);
  state.matchingBar = bar;
  // The venue learns of the bar's fills when the bar arrives: a fill stamped at the open is pushed
  // then, not at the open plus latency, which would put it before the events the strategies have
  // already seen inside the bar.
  state.lastRecvTs = Math.max(state.lastRecvTs, close);
  try {
    market.last = bar.open;
    state.now = openMoment(state, bar, close, late);
    const fillsBefore = state.fills;
    fillWaiting(state, bar.sym, late.items);
    const walk: BarWalk = {
      state,
      market,
      bar,
      late,
      atRisk: mayLiquidateWithin(state, market, bar.sym, bar.low, bar.high),
    };
    walkSegment(walk, bar.open, bar.open);
    checkBarSpan(state, bar, cutoff, noted, state.fills !== fillsBefore);
    endArrivalCrossing(state, bar.sym);
    state.now = close;
    const path = barPath(bar, netQtyOf(state, bar.sym));
    walkSegment(walk, path[0], path[1]);
    walkSegment(walk, path[1], path[2]);
    walkSegment(walk, path[2], path[3]);
  } finally {
    state.matchingBar = undefined;
    state.now = close;
    market.last = bar.close;
    restoreLate(state, late);
  }
}

/** True when the venue holds no order or algo order of any kind: a bar has nothing to match. */
function nothingLive(state: SimState): boolean {
  return (
    state.liveOrders.size === 0 &&
    state.held.length === 0 &&
    state.waitingMarket.length === 0 &&
    state.algos.size === 0
  );
}

/**
 * A bar that meets no order and cannot reach a liquidation: what its full replay would leave (the
 * venue has learnt of it, the sym's last price is its close, its span checked for early venue
 * work) without walking its path, which would find nothing. Most bars of a run are such bars.
 */
function passBar(state: SimState, market: SymMarket, bar: BarEvent, previousRecvTs: number): void {
  const close = state.now;
  state.lastRecvTs = Math.max(state.lastRecvTs, close);
  if (state.venueWork !== undefined) {
    // At the open's moment, as a replay checks it: the bar's open time when nothing takes part.
    state.now = Math.min(bar.openTime, close);
    checkBarSpan(state, bar, arrivalCutoff(state, bar, previousRecvTs), venueWorkNoted(state), false);
    state.now = close;
  }
  market.last = bar.close;
}

/**
 * When the open's fills happen: at the bar's open time, or when the latest order or algo order on
 * the sym that takes part in the bar was received if that was later (one sent at the previous
 * close that arrived after the open, with latency, fills or triggers at the open price but not
 * before it existed), never after the close.
 */
function openMoment(state: SimState, bar: BarEvent, close: number, late: LateArrivals): number {
  let moment = bar.openTime;
  for (const order of state.liveOrders) {
    if (order.sym === bar.sym && order.receivedAt > moment && !late.items.has(order))
      moment = order.receivedAt;
  }
  for (const algo of state.algos.values()) {
    if (algo.sym === bar.sym && algo.receivedAt > moment && !late.items.has(algo)) moment = algo.receivedAt;
  }
  return Math.min(moment, close);
}

/**
 * A limit marketable when it arrived between bars is marked `crossed` and fills as a taker if the
 * next open reaches it; one the open did not reach rests from then on, and fills as a maker.
 */
function endArrivalCrossing(state: SimState, sym: string): void {
  const book = state.books.get(sym);
  if (book === undefined || book.size === 0) return;
  for (const order of book.buys) order.crossed = false;
  for (const order of book.sells) order.crossed = false;
}

const NOTHING = 0;
const TRIGGER = 1;
const BUY = 2;
const SELL = 3;
const LIQUIDATION = 4;

/**
 * Walks the price from `from` to `to`, handling what it reaches in the order it reaches it: a
 * trigger fires (its order takes at the trigger price, or at the current price when it was already
 * past it), the best resting buy or sell fills at its limit (at the current price when already
 * through it), or the account is liquidated ({@link liquidationPointOn}). After each of them the
 * rest of the segment is looked at again from that price, so the tp / sl attached by a fill, or a
 * limit placed by a trigger, meets the rest of the segment. On a tie a trigger comes first, then a
 * resting fill, then a liquidation.
 */
function walkSegment(walk: BarWalk, from: number, to: number): void {
  const state = walk.state;
  // The common case (no trigger, no resting order, no liquidation in reach) costs four reads.
  if (!walk.atRisk && state.held.length === 0 && state.algos.size === 0 && !hasResting(state, walk.bar.sym)) {
    return;
  }
  walkEvents(walk, from, to);
}

function hasResting(state: SimState, sym: string): boolean {
  const book = state.books.get(sym);
  return book !== undefined && book.size > 0;
}

function walkEvents(walk: BarWalk, from: number, to: number): void {
  const { state, market } = walk;
  const sym = walk.bar.sym;
  let at = from;
  let stuckBuy: SimOrder | undefined;
  let stuckSell: SimOrder | undefined;
  let liquidationTries = 0;
  for (;;) {
    let next = NOTHING;
    let nextAt = Number.NaN;
    let distance = Number.POSITIVE_INFINITY;
    let trigger: DueTrigger | undefined;
    let order: SimOrder | undefined;
    if (state.held.length > 0 || state.algos.size > 0) {
      trigger = firstTrigger(state, sym, at, to, walk.late.items);
      if (trigger !== undefined) {
        next = TRIGGER;
        nextAt = trigger.at;
        distance = Math.abs(nextAt - at);
      }
    }
    const book = state.books.get(sym);
    if (book !== undefined && book.size > 0) {
      const buy = book.buys[0];
      if (buy !== undefined && buy !== stuckBuy && Math.min(at, to) <= buy.priceN) {
        const price = Math.min(at, buy.priceN);
        if (Math.abs(price - at) < distance) {
          [next, nextAt, distance, order] = [BUY, price, Math.abs(price - at), buy];
        }
      }
      const sell = book.sells[0];
      if (sell !== undefined && sell !== stuckSell && Math.max(at, to) >= sell.priceN) {
        const price = Math.max(at, sell.priceN);
        if (Math.abs(price - at) < distance) {
          [next, nextAt, distance, order] = [SELL, price, Math.abs(price - at), sell];
        }
      }
    }
    if (walk.atRisk && liquidationTries < 2) {
      // When the Decimal check did not confirm a point (float noise at the crossing), the next tick.
      const point =
        liquidationTries === 0
          ? liquidationPointOn(state, market, sym, at, to)
          : tickPast(state, sym, at, to);
      if (!Number.isNaN(point) && Math.abs(point - at) < distance) [next, nextAt] = [LIQUIDATION, point];
    }
    if (next === NOTHING) return;
    market.last = nextAt;
    at = nextAt;
    if (next === LIQUIDATION) {
      if (!liquidateInBar(state)) {
        liquidationTries++;
        continue;
      }
    } else if (next === TRIGGER && trigger !== undefined) {
      fireTrigger(state, trigger);
    } else if (order !== undefined) {
      fillResting(state, market, order, nextAt);
      if (book?.buys[0] === order) stuckBuy = order;
      if (book?.sells[0] === order) stuckSell = order;
    }
    // A fill or a trigger may have changed the positions: the screen and the crossing start afresh.
    walk.atRisk = mayLiquidateWithin(state, market, sym, walk.bar.low, walk.bar.high);
    liquidationTries = 0;
  }
}

/**
 * Fills a resting limit reached on the path: at its limit, or at the current price when the price
 * was already through it (the bar opened through it). A limit marketable on arrival takes.
 */
function fillResting(state: SimState, market: SymMarket, order: SimOrder, price: number): void {
  const fillPrice = price === order.priceN ? order.price : priceDecimalOf(market, price);
  executeFill(state, order, remainderOf(order), fillPrice, order.crossed ? 'TAKER' : 'MAKER');
}
