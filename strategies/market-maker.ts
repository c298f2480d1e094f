import { z } from 'zod';
import { defineStrategy, type StrategyContext } from '../core/kernel/index.ts';
import {
  asNumber,
  D,
  type Dec,
  type Intent,
  isFinalOrderState,
  type Order,
  type OrderSide,
  type QuoteEvent,
} from '../core/model/index.ts';

const params = z
  .object({
    sym: z.string().min(1).describe('The symbol to quote.'),
    qty: z.number().positive().describe('Size of each quote, in base units (or contracts).'),
    halfSpreadTicks: z
      .number()
      .int()
      .min(1)
      .default(2)
      .describe('Distance of each quote from the mid, in ticks.'),
    skewTicksPerUnit: z
      .number()
      .min(0)
      .default(1)
      .describe('Ticks both quotes move against the inventory per unit of position held.'),
    maxPosition: z
      .number()
      .positive()
      .describe('Largest absolute position: a quote never offers more than the room left to it.'),
    requoteTicks: z
      .number()
      .int()
      .min(1)
      .default(1)
      .describe('Requote only when the wanted price moved at least this many ticks.'),
  })
  .strict();

/** Parameters of the market maker. */
export type MarketMakerParams = z.infer<typeof params>;

interface QuoteSlot {
  ref: string | undefined;
  /** The price, in ticks, last sent for the slot's order (placed or modified to). */
  sentTicks: number;
  /** The slot's order's price last read ({@link restingTicksOf}), and it in ticks. */
  readPrice: Dec | undefined;
  readTicks: number;
}

interface MarketMakerState {
  readonly bid: QuoteSlot;
  readonly ask: QuoteSlot;
  tick: Dec;
  lot: Dec;
  /** Tick and lot as numbers, and the minimum size in lots: the per-quote work stays on numbers. */
  tickN: number;
  lotN: number;
  minLots: number;
  /** The instrument's minimum notional and contract size. */
  minNotional: number;
  contractSize: number;
  /**
   * Quote prices made lately, by ticks, in two generations: the one filling now and the one
   * before it (see {@link priceAt}).
   */
  prices: Map<number, Dec>;
  olderPrices: Map<number, Dec>;
  /** The last quote size made, and its number of lots: nearly every quote offers the full `qty`. */
  qty: { readonly lots: number; readonly value: Dec } | undefined;
  /** The market stream is down (live and paper): the quotes were pulled and none is made until it is back. */
  marketDown: boolean;
  /**
   * The private stream dropped and is not reconciled yet (live and paper): the quotes were pulled
   * (a fill would go unseen, and every modify would be denied) and none is made until it is.
   */
  privateDown: boolean;
}

/** How many quote prices a generation of {@link priceAt}'s holds before the next one starts. */
const PRICES_KEPT = 4096;

/**
 * The price `ticks` whole ticks from zero (`tick × ticks`), made once and then reused while kept:
 * a requote would otherwise make a new Decimal per modify, and the kernel keeps what a modify
 * asked for long enough that each is promoted to the old generation. The prices are kept in two
 * generations: a full one becomes the older, dropping the one before, and a price found in the
 * older one moves to the new one. A quote wanders over thousands of prices and comes back to them
 * later: the 200k-event BBO run makes 22 900 prices so (nearly one per price it quotes), where
 * starting over from empty at 4096 made 32 400.
 */
function priceAt(ctx: Ctx, ticks: number): Dec {
  const state = ctx.state;
  let price = state.prices.get(ticks);
  if (price !== undefined) return price;
  price = state.olderPrices.get(ticks) ?? state.tick.mul(ticks);
  if (state.prices.size >= PRICES_KEPT) {
    state.olderPrices = state.prices;
    state.prices = new Map();
  }
  state.prices.set(ticks, price);
  return price;
}

/** The size `lots` whole lots (`lot × lots`), the last one made reused while the same. */
function qtyAt(ctx: Ctx, lots: number): Dec {
  const last = ctx.state.qty;
  if (last !== undefined && last.lots === lots) return last.value;
  const value = ctx.state.lot.mul(lots);
  ctx.state.qty = { lots, value };
  return value;
}

type Ctx = StrategyContext<MarketMakerParams, MarketMakerState>;

/** What one side wants: a price in whole ticks and a size in whole lots. */
interface Wanted {
  readonly ticks: number;
  readonly lots: number;
}

/** The slot's order while it is not final (in-flight states included); clears a finished slot. */
function slotOrder(ctx: Ctx, slot: QuoteSlot): Order | undefined {
  if (slot.ref === undefined) return undefined;
  const order = ctx.orderByRef(slot.ref);
  if (order === undefined || isFinalOrderState(order.orderState)) {
    slot.ref = undefined;
    return undefined;
  }
  return order;
}

function quoteSide(ctx: Ctx, side: OrderSide, wanted: Wanted | undefined): void {
  const slot = side === 'BUY' ? ctx.state.bid : ctx.state.ask;
  const live = slotOrder(ctx, slot);
  // One request in flight per side (new, modify or cancel): wait for the venue before asking again.
  if (live?.orderState.startsWith('PENDING')) return;
  // The leg the quote goes to: in BOTH mode it closes the opposite leg held (reduce-only, at most
  // its size) before it may open its own; NONE in NET mode, where no Decimal is made per quote event
  // (the quote's qty only when it is placed).
  const both = ctx.positionMode() === 'BOTH';
  const leg =
    wanted === undefined || !both
      ? undefined
      : ctx.order.legs(ctx.params.sym, side, qtyAt(ctx, wanted.lots), wanted.ticks * ctx.state.tickN)[0];
  if (wanted === undefined || (both && leg === undefined)) {
    if (live !== undefined) ctx.submit(ctx.order.cancel(live));
    return;
  }
  // A quote resting on the other leg than the one wanted now (a fill changed the legs held) goes,
  // and the next quote is placed on the right one.
  if (live !== undefined && live.positionSide !== (leg?.positionSide ?? 'NONE')) {
    ctx.submit(ctx.order.cancel(live));
    return;
  }
  if (live !== undefined) {
    const moved = Math.abs(restingTicksOf(ctx, slot, live) - wanted.ticks);
    if (moved >= ctx.params.requoteTicks) {
      slot.sentTicks = wanted.ticks;
      ctx.submit(ctx.order.modify(live, { price: priceAt(ctx, wanted.ticks) }));
    }
    return;
  }
  const intent = ctx.order.postOnly({
    sym: ctx.params.sym,
    side,
    ...(leg ?? { qty: qtyAt(ctx, wanted.lots) }),
    price: priceAt(ctx, wanted.ticks),
  });
  slot.ref = intent.ref;
  slot.sentTicks = wanted.ticks;
  ctx.submit(intent);
}

/**
 * Takes back the quotes an earlier run of this strategy left on the venue (a restarted live or
 * paper session adopts them: they are in `openOrders()`): the first of each side becomes that
 * side's quote, to be modified as any other; another of the same side is cancelled, so the
 * restarted strategy never quotes twice the size `maxPosition` allows for.
 * @returns the cancels of the surplus quotes
 */
function adoptQuotes(ctx: Ctx): Intent[] {
  const surplus: Intent[] = [];
  for (const order of ctx.openOrders(ctx.params.sym)) {
    const slot = order.side === 'BUY' ? ctx.state.bid : ctx.state.ask;
    if (slot.ref === undefined) {
      slot.ref = order.clientOrderId;
      slot.sentTicks = restingTicksOf(ctx, slot, order);
    } else surplus.push(ctx.order.cancel(order));
  }
  return surplus;
}

/**
 * The prices, in ticks, the slot's order may rest at on the venue: its known price and, while a
 * modify is in flight, the price sent. Reduced with `pick` (Math.min or Math.max) to the one the
 * other side must stay clear of; `none` when the slot has no order.
 */
function restingTicks(
  ctx: Ctx,
  slot: QuoteSlot,
  pick: (a: number, b: number) => number,
  none: number,
): number {
  const live = slotOrder(ctx, slot);
  if (live === undefined) return none;
  return pick(restingTicksOf(ctx, slot, live), slot.sentTicks);
}

/**
 * The price the slot's order rests at, in ticks: read off its Decimal once per price, as every
 * quote event asks for it (both sides twice) and the order keeps its price for many events.
 */
function restingTicksOf(ctx: Ctx, slot: QuoteSlot, live: Order): number {
  if (slot.readPrice !== live.limitPrice) {
    slot.readPrice = live.limitPrice;
    slot.readTicks = Math.round(asNumber(live.limitPrice) / ctx.state.tickN);
  }
  return slot.readTicks;
}

/**
 * Lots a side may offer at a price: `qty`, cut to the room left before `maxPosition`; 0 below the
 * instrument's minimum size or notional (the risk gate would deny it).
 */
function lotsFor(ctx: Ctx, room: number, ticks: number): number {
  const { lotN, tickN, minLots, minNotional, contractSize } = ctx.state;
  const lots = Math.floor(Math.min(ctx.params.qty, room) / lotN + 1e-9);
  const notional = lots * lotN * ticks * tickN * contractSize;
  return lots >= minLots && notional >= minNotional ? lots : 0;
}

function requote(ctx: Ctx, quote: QuoteEvent): void {
  const { halfSpreadTicks, skewTicksPerUnit, maxPosition } = ctx.params;
  const tick = ctx.state.tickN;
  const inventory = asNumber(ctx.netQty(quote.sym));
  // Whole-tick arithmetic: prices built from float division would fall off the tick grid.
  const bidTicks = Math.round(quote.bid / tick);
  const askTicks = Math.round(quote.ask / tick);
  const mid = (bidTicks + askTicks) / 2;
  const skew = -inventory * skewTicksPerUnit;
  // Never cross the touch: a post-only quote that would take is rejected by the venue anyway. Nor
  // our own other quote, wherever it may rest while a request for it is in flight.
  const bid = Math.min(
    Math.floor(mid - halfSpreadTicks + skew + 1e-9),
    bidTicks,
    restingTicks(ctx, ctx.state.ask, Math.min, Number.POSITIVE_INFINITY) - 1,
  );
  const ask = Math.max(
    Math.ceil(mid + halfSpreadTicks + skew - 1e-9),
    askTicks,
    restingTicks(ctx, ctx.state.bid, Math.max, Number.NEGATIVE_INFINITY) + 1,
  );
  const bidLots = lotsFor(ctx, maxPosition - inventory, bid);
  const askLots = lotsFor(ctx, maxPosition + inventory, ask);
  quoteSide(ctx, 'BUY', bidLots > 0 ? { ticks: bid, lots: bidLots } : undefined);
  quoteSide(ctx, 'SELL', askLots > 0 ? { ticks: ask, lots: askLots } : undefined);
}

/**
 * A two-sided market maker. On every BBO of `sym` it wants a post-only bid `halfSpreadTicks`
 * below the mid and an ask as far above, both shifted `skewTicksPerUnit` ticks per unit of
 * inventory against it (down when long, up when short), never through the touch nor through its
 * own other quote (where that one rests or is being moved to). A quote is
 * modified in place when its wanted price moved by `requoteTicks` or more. Each quote offers at
 * most the room left before `maxPosition`, so a fill never takes the position past it, and a
 * side with no room is withdrawn. In BOTH (hedge) mode a quote first closes the opposite leg held
 * (reduce-only, at most that leg's size) and opens its own leg only when none is held, so the
 * inventory stays on one leg as in NET mode (`ctx.order.legs`); a quote left on the wrong leg by a
 * fill is cancelled and placed anew. One request per side is in flight at a time. Cancels its
 * quotes on stop, and in a live or paper session when the market stream goes down (its prices are
 * stale then) or the private stream does (a fill would go unseen and every modify be denied; the
 * cancel goes over REST); quotes again on the first BBO once the market stream is back and the
 * private stream reconciled. Restarted, it takes back the
 * quotes its earlier run left (one per side).
 * @example
 * { id: 'mm1', strategy: marketMaker, params: { sym: 'BINANCE_PERP_BTC_USDT', qty: 0.01, maxPosition: 0.05 } }
 */
export const marketMaker = defineStrategy<MarketMakerParams, MarketMakerState>({
  name: 'market-maker',
  description: 'Two-sided post-only quotes around the mid with inventory skew and a position cap.',
  params,
  state: () => ({
    bid: { ref: undefined, sentTicks: 0, readPrice: undefined, readTicks: 0 },
    ask: { ref: undefined, sentTicks: 0, readPrice: undefined, readTicks: 0 },
    tick: D(0),
    lot: D(0),
    tickN: 0,
    lotN: 0,
    minLots: 1,
    minNotional: 0,
    contractSize: 1,
    prices: new Map(),
    olderPrices: new Map(),
    qty: undefined,
    marketDown: false,
    privateDown: false,
  }),
  onStart: (ctx) => {
    const spec = ctx.instrument(ctx.params.sym);
    if (spec === undefined) throw new Error(`market-maker: unknown instrument ${ctx.params.sym}`);
    ctx.state.tick = spec.tickSize;
    ctx.state.lot = spec.lotSize;
    ctx.state.tickN = spec.tickSize.toNumber();
    ctx.state.lotN = spec.lotSize.toNumber();
    ctx.state.minLots = Math.max(1, spec.minSize.div(spec.lotSize).ceil().toNumber());
    ctx.state.minNotional = spec.minNotional.toNumber();
    ctx.state.contractSize = spec.contractSize.toNumber();
    return adoptQuotes(ctx);
  },
  onQuote: (ctx, quote) => {
    if (ctx.state.marketDown || ctx.state.privateDown) return;
    if (quote.sym === ctx.params.sym && quote.bid > 0 && quote.bid < quote.ask) requote(ctx, quote);
  },
  onVenueStatus: (ctx, status) => {
    const wasDown = ctx.state.marketDown || ctx.state.privateDown;
    if (status.stream === 'market') ctx.state.marketDown = status.state === 'down';
    else ctx.state.privateDown = status.state !== 'reconciled';
    const down = ctx.state.marketDown || ctx.state.privateDown;
    return down && !wasDown && ctx.openOrders(ctx.params.sym).length > 0
      ? ctx.order.cancelMany({ sym: ctx.params.sym })
      : undefined;
  },
  onStop: (ctx) =>
    ctx.openOrders(ctx.params.sym).length > 0 ? ctx.order.cancelMany({ sym: ctx.params.sym }) : undefined,
});
