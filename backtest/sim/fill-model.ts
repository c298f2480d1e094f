import type { MarketEvent } from '../../core/model/index.ts';
import type { SimOrder } from './sim-order.ts';

/**
 * Names of the fill models, printed in reports.
 * - `touch`: a resting order fills when the opposite quote or a trade reaches its price.
 * - `through`: it fills only when the market trades or quotes strictly through its price.
 * - `queue`: it waits behind the quantity displayed at its price when it arrived; trades at its
 *   price eat the queue first, trades or quotes through its price fill it.
 * - `bar`: bars only; market orders fill at the next bar's open, limits and stops where the bar's
 *   path reaches them, the extreme adverse to the position after the open's fills first.
 */
export const FILL_MODEL_NAMES = ['touch', 'through', 'queue', 'bar'] as const;
/** One fill model name. */
export type FillModelName = (typeof FILL_MODEL_NAMES)[number];

/** Fill model settings. */
export interface FillModelOptions {
  readonly name: FillModelName;
  /** Limit each fill to the displayed (quotes) or traded (trades) size. Default true. */
  readonly partialFills?: boolean;
  /** Extra adverse ticks added to every market-order fill price. Default 0. */
  readonly slippageTicks?: number;
  /**
   * Ticks beyond the last displayed level at which a market order's remainder fills when it
   * outgrows the displayed size (Keel's choice: one tick). Default 1.
   */
  readonly beyondBookTicks?: number;
}

/** Fill model settings with every default filled in. */
export type ResolvedFillModel = Required<FillModelOptions>;

/**
 * Fills in the fill model's defaults.
 * @param options - a name or full settings
 * @returns resolved settings
 * @throws RangeError for an unknown name or negative tick counts
 */
export function resolveFillModel(options: FillModelOptions | FillModelName): ResolvedFillModel {
  const given = typeof options === 'string' ? { name: options } : options;
  if (!(FILL_MODEL_NAMES as readonly string[]).includes(given.name)) {
    throw new RangeError(
      `sim fillModel.name must be one of ${FILL_MODEL_NAMES.join(', ')}, got ${given.name}`,
    );
  }
  const resolved = { partialFills: true, slippageTicks: 0, beyondBookTicks: 1, ...given };
  if (resolved.slippageTicks < 0 || resolved.beyondBookTicks < 0) {
    throw new RangeError('sim fillModel.slippageTicks and beyondBookTicks must be >= 0');
  }
  return resolved;
}

/**
 * A short description of the fill model for reports.
 * @param model - resolved settings
 * @returns e.g. `queue (partial fills, market slippage 0 ticks + 1 tick beyond the book)`
 */
export function describeFillModel(model: ResolvedFillModel): string {
  const partial = model.partialFills ? 'partial fills limited by displayed/traded size' : 'full fills';
  return `${model.name} (${partial}, market slippage ${model.slippageTicks} ticks + ${model.beyondBookTicks} beyond the book)`;
}

function crosses(strict: boolean, buy: boolean, marketPrice: number, limit: number): boolean {
  if (strict) return buy ? marketPrice < limit : marketPrice > limit;
  return buy ? marketPrice <= limit : marketPrice >= limit;
}

/**
 * How much of a resting limit order a quote, book or trade event could fill, before sharing the
 * event's size with other resting orders. Updates the order's queue position (queue model).
 * Allocation-free: it runs for the head of the book on every market event of its sym.
 * @param model - resolved fill model (not `bar`)
 * @param order - a working limit order
 * @param event - the market event
 * @returns the quantity the event offers this order (Infinity when sizes are not limiting), 0 = none
 */
export function restingCapacity(model: ResolvedFillModel, order: SimOrder, event: MarketEvent): number {
  const buy = order.sign > 0;
  const limit = order.priceN;
  const strict = model.name === 'through';
  let size = 0;
  switch (event.kind) {
    case 'quote': {
      if (model.name === 'queue') trimQueue(order, event);
      if (crosses(strict, buy, buy ? event.ask : event.bid, limit)) size = buy ? event.askQty : event.bidQty;
      break;
    }
    case 'book': {
      if (model.name === 'queue') trimQueue(order, event);
      for (const [price, qty] of buy ? event.asks : event.bids) {
        if (!crosses(strict, buy, price, limit)) break;
        size += qty;
      }
      break;
    }
    case 'trade': {
      if (model.name === 'queue' && event.price === limit) {
        if (event.side !== (buy ? 'SELL' : 'BUY')) return 0;
        const beyondQueue = event.qty - order.queueAhead;
        order.queueAhead = Math.max(0, order.queueAhead - event.qty);
        size = Math.max(0, beyondQueue);
      } else if (crosses(strict || model.name === 'queue', buy, event.price, limit)) {
        size = event.qty;
      }
      break;
    }
    default:
      return 0;
  }
  if (!(size > 0)) return 0;
  return model.partialFills ? size : Number.POSITIVE_INFINITY;
}

/**
 * The queue ahead of an order can never exceed what the venue displays at its price: shrink it
 * when the displayed size at the order's price drops (cancellations ahead count in our favour only
 * down to the displayed size; Keel's choice, the usual risk-averse queue model).
 * @param order - a resting order (queue model)
 * @param event - a quote or book event of its sym
 */
export function trimQueue(order: SimOrder, event: MarketEvent): void {
  const buy = order.sign > 0;
  if (event.kind === 'quote') {
    if ((buy ? event.bid : event.ask) === order.priceN)
      order.queueAhead = Math.min(order.queueAhead, buy ? event.bidQty : event.askQty);
    return;
  }
  if (event.kind !== 'book') return;
  for (const [price, qty] of buy ? event.bids : event.asks) {
    if (price === order.priceN) {
      order.queueAhead = Math.min(order.queueAhead, qty);
      return;
    }
  }
}

/**
 * The queue ahead of a new resting order: the size displayed at its price on its own side, 0 when
 * it improves on the best price (queue model; 0 for the others).
 * @param model - resolved fill model
 * @param order - the order about to rest
 * @param sameSide - the displayed levels on the order's side, best first
 * @returns the quantity ahead of it
 */
export function initialQueue(
  model: ResolvedFillModel,
  order: SimOrder,
  sameSide: readonly (readonly [number, number])[],
): number {
  if (model.name !== 'queue') return 0;
  for (const [price, qty] of sameSide) {
    if (price === order.priceN) return qty;
  }
  const best = sameSide[0];
  if (best === undefined) return 0;
  const improves = order.sign > 0 ? order.priceN > best[0] : order.priceN < best[0];
  // Behind the displayed levels the depth is unknown: assume everything displayed is ahead.
  return improves ? 0 : sameSide.reduce((sum, [, qty]) => sum + qty, 0);
}
