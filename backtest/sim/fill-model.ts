import type { BookLevel, MarketTradeEvent } from '../../core/model/index.ts';
import { offeredAt, type TakenLevel } from './market-state.ts';
import { displayedAtPrice, queueTrade } from './queue-position.ts';
import type { SimOrder } from './sim-order.ts';

/**
 * Names of the fill models, printed in reports.
 * - `touch`: a resting order fills when the opposite quote or a trade reaches its price.
 * - `through`: it fills only when the market trades or quotes strictly through its price.
 * - `queue`: it waits behind the quantity displayed at its price when it arrived (price-time
 *   priority: only orders at its price are ahead); trades at its price eat the queue first (after
 *   the part a display took off the queue before its print, `queue-position.ts`), trades through
 *   its price fill it. On quotes and books it fills at the touch, as `touch` does, when the
 *   opposite side reaches its price: on an ordinary book the queue ahead is used up by then (the
 *   opposite side reaches a bid only when the levels at and above it are gone, which empties the
 *   queue). On a locked or crossed book, whose own side still shows size at or above its price,
 *   the opposite size goes to that size first (`sizesAhead`). With nothing displayed on its
 *   side (a trades-only recording) the queue is unknown, so only trades through its price fill it.
 * With partial fills, a displayed level is offered once: what the sim took of it is not offered
 * again until its displayed size changes, nor by the print that lifts it (Keel's choice; see
 * `TakenLevel`).
 * - `bar`: bars only; market orders fill at the next bar's open, limits and stops where the bar's
 *   path reaches them, the extreme adverse to the position after the open's fills first. An order
 *   meets only bars that opened after it arrived (see `bar-arrivals.ts`), and with bars of several
 *   intervals the finest (see `bar-coverage.ts`). Fills at the bar's open carry its open time;
 *   every fill inside the bar (a limit, an attached stop-loss or take-profit the path reaches)
 *   carries the bar's close time, not when the price came: the path inside a bar is unknown, and
 *   the close is the first moment the bar is known.
 */
export const FILL_MODEL_NAMES = ['touch', 'through', 'queue', 'bar'] as const;
/** One fill model name. */
export type FillModelName = (typeof FILL_MODEL_NAMES)[number];

/** Fill model settings. */
export interface FillModelOptions {
  readonly name: FillModelName;
  /**
   * Limit fills to the displayed (quotes, books) or traded (trades) size. Default true. Displayed
   * size the sim took is not offered again until the level's size changes.
   */
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
  if (model.name === 'bar') {
    return `bar (market orders at the next bar's open, limits and stops inside the bar's range, the stop first when both could trigger; an order received inside a bar waits for the next one; with bars of several intervals the finest decide; whole fills: a bar's volume is no size limit; market slippage ${model.slippageTicks} ticks)`;
  }
  const partial = model.partialFills ? 'partial fills limited by displayed/traded size' : 'full fills';
  return `${model.name} (${partial}, market slippage ${model.slippageTicks} ticks + ${model.beyondBookTicks} beyond the book)`;
}

/**
 * Whether a resting order's limit meets a market price under the fill model: at or through it
 * (`touch`, `queue`: on quotes and books the queue model fills at the touch, after what
 * `sizesAhead` gives the size ahead of it), strictly through it (`through`).
 * @param model - resolved fill model (not `bar`)
 * @param order - a working limit order
 * @param marketPrice - an opposite level's price or a trade price
 * @returns true when the price can fill the order
 */
export function restingCrosses(model: ResolvedFillModel, order: SimOrder, marketPrice: number): boolean {
  return crosses(model.name === 'through', order.sign > 0, marketPrice, order.priceN);
}

function crosses(strict: boolean, buy: boolean, marketPrice: number, limit: number): boolean {
  if (strict) return buy ? marketPrice < limit : marketPrice > limit;
  return buy ? marketPrice <= limit : marketPrice >= limit;
}

/**
 * How much of a resting limit order a printed trade could fill, before sharing the trade's size
 * with other resting orders. Each print is liquidity of its own, less what it only shows traded:
 * a print by an aggressor on the order's own side (a BUY print through a resting bid) lifted the
 * opposite level at its price, so what the sim already took of that displayed level is not
 * offered again (`explained`; one liquidity, displayed and then printed). A print by an aggressor
 * on the other side went through our level, which it emptied first. Updates the order's queue
 * position (queue model: a trade at its price by an aggressor on the other side eats the queue,
 * after the part of the queue that went without a print, `queueTrade`).
 * Quotes and books are matched level by level in `resting-matching.ts` instead.
 * Allocation-free: it runs for the head of the book on every trade of its sym.
 * @param model - resolved fill model (not `bar`)
 * @param order - a working limit order
 * @param event - the trade
 * @param explained - the part of the trade's size that shows displayed liquidity the sim took
 *   traded (`SymMarket.lastExplained`)
 * @returns the quantity the trade offers this order (Infinity when sizes are not limiting), 0 = none
 */
export function tradeCapacity(
  model: ResolvedFillModel,
  order: SimOrder,
  event: MarketTradeEvent,
  explained: number,
): number {
  const buy = order.sign > 0;
  const limit = order.priceN;
  let size = 0;
  if (model.name === 'queue' && event.price === limit) {
    if (event.side !== (buy ? 'SELL' : 'BUY')) return 0;
    size = queueTrade(order, event.qty);
  } else if (crosses(model.name !== 'touch', buy, event.price, limit)) {
    size = event.side === (buy ? 'BUY' : 'SELL') ? event.qty - explained : event.qty;
  }
  if (!(size > 0)) return 0;
  return model.partialFills ? size : Number.POSITIVE_INFINITY;
}

/**
 * Queue model, quotes and books: how much of the displayed opposite size reaching a resting order's
 * price goes first to the size displayed ahead of it, and moves its queue up by what reaches its
 * own price level. Ahead of it are the displayed levels of its own side at better prices, then its
 * queue at its price. On an ordinary book both are empty whenever the opposite side reaches its
 * price (`trimQueue` empties the queue of a level shown gone), so this is 0 and it fills at the
 * touch. On a locked book (the ask at our bid while our level still shows size) or a crossed one,
 * an arriving seller would meet those bids first in price-time priority, so the opposite size
 * serves them first (Keel's choice, the risk-averse one: a recording cannot say which side of a
 * locked book is stale, and on a consolidated equity feed both may be live on different venues).
 * A displayed level through its price is not taken as a trade through it: a print through our
 * price shows our level was emptied first, a displayed one does not.
 * Allocation-free; it runs for each reached resting order on quote and book events.
 * @param order - a resting, not crossed limit order
 * @param sameSide - the displayed levels of its side, best first
 * @param opposite - the displayed opposite levels, best first
 * @param taken - what the sim's orders (and the size ahead of them) already took of `opposite`
 * @returns the size the opposite side gives the displayed size ahead of the order, before it
 */
function displayedAhead(
  order: SimOrder,
  sameSide: readonly BookLevel[],
  opposite: readonly BookLevel[],
  taken: readonly TakenLevel[],
): number {
  const buy = order.sign > 0;
  let better = 0;
  for (const [price, qty] of sameSide) {
    if (buy ? price <= order.priceN : price >= order.priceN) break;
    better += qty;
  }
  const queue = order.queueAhead;
  if (better === 0 && queue === 0) return 0;
  let reach = 0;
  for (const [price, shown] of opposite) {
    if (buy ? price > order.priceN : price < order.priceN) break;
    reach += offeredAt(taken, price, shown);
  }
  if (!(reach > 0)) return 0;
  // The queue moves up without a print: the print that shows it later must not move it again.
  const moved = Math.min(queue, Math.max(0, reach - better));
  order.queueAhead = queue - moved;
  order.queueUnexplained += moved;
  return Math.min(reach, better + queue);
}

/**
 * Queue model: what the displayed opposite size gives first to the size displayed ahead of each
 * resting order it reaches (`displayedAhead`, 0 on an ordinary book), worked out for every order
 * before any fill, as a trade moves every order at its price up its queue. Undefined when nothing
 * is ahead of any of them: the common case allocates nothing.
 * @param side - one side of the resting book, in priority order
 * @param sameSide - the displayed levels of that side, best first
 * @param opposite - the displayed opposite levels, best first
 * @param taken - what the sim's orders already took of `opposite`
 * @returns the size ahead of each reached order, or undefined when none has any
 */
export function sizesAhead(
  side: readonly SimOrder[],
  sameSide: readonly BookLevel[],
  opposite: readonly BookLevel[],
  taken: readonly TakenLevel[],
): Map<SimOrder, number> | undefined {
  const best = opposite[0];
  let ahead: Map<SimOrder, number> | undefined;
  for (const order of side) {
    // Best priority first: once the opposite side misses one, it misses the rest.
    if (best === undefined || !crosses(false, order.sign > 0, best[0], order.priceN)) break;
    if (order.crossed) continue;
    const size = displayedAhead(order, sameSide, opposite, taken);
    if (!(size > 0)) continue;
    ahead ??= new Map();
    ahead.set(order, size);
  }
  return ahead;
}

/**
 * The queue ahead of a new resting order, in price-time priority only the orders already at its
 * price (queue model; 0 for the others): the size displayed at its price on its own side; 0 when
 * nothing is displayed there although the displayed levels reach it (it improves on the best
 * price, or lies between two levels). Beyond the displayed depth, and when nothing at all is
 * displayed on its side (a trades-only recording, before the first quote), the size at its price
 * is unknown: Infinity, so no trade at its price reaches it and only trades strictly through its
 * price fill it, as under `through`, until a quote or book shows the level, which trims the queue
 * to the displayed size, all of it assumed ahead (Keel's choice, risk-averse).
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
  return displayedAtPrice(sameSide, order);
}
