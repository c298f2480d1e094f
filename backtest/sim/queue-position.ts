import type { MarketEvent } from '../../core/model/index.ts';
import type { SimOrder } from './sim-order.ts';

/*
 * A resting order's place in its price level's queue (queue fill model): the displayed size ahead
 * of it (`queueAhead`), and the part of the queue that went without a print yet
 * (`queueUnexplained`). The recording shows a trade twice, as a display that shrank and as its
 * print, in either order: when the display comes first, the queue has moved up already, so the
 * print must not move it again. The next prints at the order's price by aggressors on the other
 * side use the unexplained part up first, and only the rest moves the queue and fills the order
 * (Keel's choice, the conservative one: a display cannot say whether its level shrank by trades or
 * by cancellations, and a print can). When the print comes first, the display that follows shows
 * no more than the queue left, so nothing is counted twice either.
 */

/**
 * The queue ahead of an order can never exceed what the venue displays at its price: shrink it
 * when the displayed size at the order's price drops (cancellations ahead count in our favour only
 * down to the displayed size; Keel's choice, the usual risk-averse queue model). When the event
 * shows the order's price level empty (the side's displayed levels reach the price or go past it,
 * but none is at it), nobody is ahead any more: the queue is 0. A price beyond the displayed depth
 * tells nothing, and neither does an empty side. What the queue shrank by is unexplained until a
 * print at its price shows it (`queueTrade`).
 * @param order - a resting order (queue model)
 * @param event - a quote or book event of its sym
 */
export function trimQueue(order: SimOrder, event: MarketEvent): void {
  const buy = order.sign > 0;
  if (event.kind === 'quote') {
    const best = buy ? event.bid : event.ask;
    if (best === order.priceN) shrinkQueue(order, buy ? event.bidQty : event.askQty);
    else if (buy ? best < order.priceN : best > order.priceN) shrinkQueue(order, 0);
    return;
  }
  if (event.kind !== 'book') return;
  shrinkQueue(order, displayedAtPrice(buy ? event.bids : event.asks, order));
}

function shrinkQueue(order: SimOrder, displayed: number): void {
  const queue = order.queueAhead;
  if (!(displayed < queue)) return;
  // An unknown queue (Infinity) shown for the first time did not shrink: it became known.
  if (queue !== Number.POSITIVE_INFINITY) order.queueUnexplained += queue - displayed;
  order.queueAhead = displayed;
}

/**
 * Moves a resting order up its queue by a trade at its price by an aggressor on the other side:
 * the trade first explains the part of the queue that went without a print, then eats the queue
 * ahead; what is left of it reaches the order.
 * Allocation-free: it runs for every resting order at a traded price.
 * @param order - a resting order (queue model)
 * @param qty - the trade's size
 * @returns the part of the trade beyond the queue ahead, 0 when none
 */
export function queueTrade(order: SimOrder, qty: number): number {
  const explained = Math.min(order.queueUnexplained, qty);
  order.queueUnexplained -= explained;
  const rest = qty - explained;
  const queue = order.queueAhead;
  order.queueAhead = Math.max(0, queue - rest);
  return Math.max(0, rest - queue);
}

/**
 * What the displayed levels of an order's own side show at its price: the level's size, 0 when the
 * levels show the price empty (it improves on the best, or falls between two displayed levels),
 * Infinity when it lies beyond the displayed depth or the side is empty (unknown).
 * @param sameSide - the displayed levels of the order's side, best first
 * @param order - the order
 * @returns the size displayed at its price
 */
export function displayedAtPrice(sameSide: readonly (readonly [number, number])[], order: SimOrder): number {
  const buy = order.sign > 0;
  for (const [price, qty] of sameSide) {
    if (price === order.priceN) return qty;
    // Levels run best first: once one is worse than ours, our price was passed without a level.
    if (buy ? price < order.priceN : price > order.priceN) return 0;
  }
  return Number.POSITIVE_INFINITY;
}
