import { asNumber, ZERO } from '../../core/model/index.ts';
import { markPriceOf } from './market-state.ts';
import { marketOf, workOrder } from './matching.ts';
import { createOrder } from './order-factory.ts';
import { publishAlgo, publishOrder } from './publish.ts';
import type { SimOrder } from './sim-order.ts';
import type { SimAlgo, SimState } from './sim-state.ts';

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
 * Releases a held conditional order to the market (trigger fired, TIME reached, HOLD modified).
 * @param state - the venue
 * @param order - a held order
 * @param message - why it was released, reported in actionMsg
 */
export function releaseHeld(state: SimState, order: SimOrder, message: string): void {
  const index = state.held.indexOf(order);
  if (index >= 0) state.held.splice(index, 1);
  order.state = 'OPEN';
  order.actionMsg = message;
  publishOrder(state, order, 'PLACE');
  workOrder(state, order);
}

function algoLevel(algo: SimAlgo): Level {
  return { up: algo.conditionType === 'GTE', price: algo.triggerN };
}

/**
 * Fires an algo order: it becomes a market order (price 0) or a GTC limit order, and its tp / sl
 * sibling is cancelled.
 * @param state - the venue
 * @param algo - an open algo order whose trigger was reached
 */
export function fireAlgo(state: SimState, algo: SimAlgo): void {
  state.algos.delete(algo.algoOrderId);
  const market = algo.price.isZero();
  const order = createOrder(state, {
    clientOrderId: `${algo.clientAlgoOrderId}-trig`,
    sym: algo.sym,
    side: algo.side,
    orderType: market ? 'MARKET' : 'LIMIT',
    timeInForce: market ? 'IOC' : 'GTC',
    qty: algo.qty,
    price: market ? ZERO : algo.price,
    reduceOnly: algo.reduceOnly,
    positionSide: algo.positionSide,
    algoOrderId: algo.algoOrderId,
  });
  algo.state = 'TRIGGERED';
  algo.orderId = order.orderId;
  publishAlgo(state, algo);
  const sibling = algo.sibling === undefined ? undefined : state.algos.get(algo.sibling);
  if (sibling) {
    state.algos.delete(sibling.algoOrderId);
    sibling.state = 'CANCELLED';
    publishAlgo(state, sibling);
  }
  publishOrder(state, order, 'PLACE');
  workOrder(state, order);
}

/**
 * Checks the held conditional orders and open algo orders of a sym over a price segment (on quotes
 * a single point): last-price triggers against [from, to]; mark-price triggers against the mark
 * when the venue sends one, else the same path (Keel's choice for bars and mark-less recordings).
 * @param state - the venue
 * @param sym - the symbol whose price moved
 * @param from - segment start (last price)
 * @param to - segment end
 */
export function checkTriggers(state: SimState, sym: string, from: number, to: number): void {
  if (state.held.length === 0 && state.algos.size === 0) return;
  const market = marketOf(state, sym);
  const restore = market.last;
  if (state.held.length > 0) {
    for (const order of state.held.filter((o) => o.sym === sym)) {
      for (const level of levelsOf(order)) {
        const at = reachedAt(level, from, to);
        if (Number.isNaN(at)) continue;
        if (state.inBar) market.last = at;
        releaseHeld(state, order, `condition ${order.condition?.code} triggered at ${at}`);
        break;
      }
    }
  }
  if (state.algos.size > 0) {
    const mark = state.inBar ? Number.NaN : markPriceOf(market);
    const due: [SimAlgo, number][] = [];
    for (const algo of state.algos.values()) {
      if (algo.sym !== sym) continue;
      const onMark = algo.triggerType === 'MarkPrice' && !Number.isNaN(mark);
      const at = onMark ? reachedAt(algoLevel(algo), mark, mark) : reachedAt(algoLevel(algo), from, to);
      if (!Number.isNaN(at)) due.push([algo, at]);
    }
    for (const [algo, at] of due) {
      // A tp / sl sibling fired earlier in this loop cancels this one.
      if (algo.state !== 'NEW') continue;
      if (state.inBar) market.last = at;
      fireAlgo(state, algo);
    }
  }
  if (state.inBar) market.last = restore;
}
