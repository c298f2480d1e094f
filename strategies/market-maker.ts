import { z } from 'zod';
import { defineStrategy, type StrategyContext } from '../core/kernel/index.ts';
import type { Order, OrderSide, QuoteEvent } from '../core/model/index.ts';

const params = z
  .object({
    /** The symbol to quote. */
    sym: z.string(),
    /** Size of each quote, in base units (or contracts). */
    qty: z.number().positive(),
    /** Distance of each quote from the mid, in ticks. */
    halfSpreadTicks: z.number().int().min(1).default(2),
    /** Ticks both quotes move against the inventory per unit of position held. */
    skewTicksPerUnit: z.number().min(0).default(1),
    /** Absolute position at which the side that would grow it stops quoting. */
    maxPosition: z.number().positive(),
    /** Requote only when the wanted price moved at least this many ticks. */
    requoteTicks: z.number().int().min(1).default(1),
  })
  .strict();

/** Parameters of the market maker. */
export type MarketMakerParams = z.infer<typeof params>;

interface QuoteSlot {
  ref: string | undefined;
}

interface MarketMakerState {
  readonly bid: QuoteSlot;
  readonly ask: QuoteSlot;
  tick: number;
}

type Ctx = StrategyContext<MarketMakerParams, MarketMakerState>;

const LIVE_STATES = new Set(['PENDING_NEW', 'NEW', 'OPEN', 'PARTIALLY_FILLED']);

function liveOrder(ctx: Ctx, slot: QuoteSlot): Order | undefined {
  if (slot.ref === undefined) return undefined;
  const order = ctx.orderByRef(slot.ref);
  if (order === undefined || !LIVE_STATES.has(order.orderState)) {
    slot.ref = undefined;
    return undefined;
  }
  return order;
}

function quoteSide(ctx: Ctx, side: OrderSide, wanted: number | undefined): void {
  const slot = side === 'BUY' ? ctx.state.bid : ctx.state.ask;
  const live = liveOrder(ctx, slot);
  // One request in flight per side: wait for the venue before asking again.
  if (live?.orderState.startsWith('PENDING')) return;
  if (wanted === undefined) {
    if (live !== undefined) ctx.submit(ctx.order.cancel(live));
    return;
  }
  if (live !== undefined) {
    const moved = Math.abs(live.limitPrice.toNumber() - wanted) / ctx.state.tick;
    if (moved >= ctx.params.requoteTicks) ctx.submit(ctx.order.modify(live, { price: wanted }));
    return;
  }
  const intent = ctx.order.postOnly({
    sym: ctx.params.sym,
    side,
    qty: ctx.params.qty,
    price: wanted,
    round: true,
  });
  slot.ref = intent.ref;
  ctx.submit(intent);
}

function requote(ctx: Ctx, quote: QuoteEvent): void {
  const { halfSpreadTicks, skewTicksPerUnit, maxPosition } = ctx.params;
  const tick = ctx.state.tick;
  const inventory = ctx.netQty(quote.sym).toNumber();
  const mid = (quote.bid + quote.ask) / 2;
  const skew = -inventory * skewTicksPerUnit * tick;
  // Never cross the touch: a post-only quote that would take is rejected by the venue anyway.
  const bid = Math.min(Math.floor((mid - halfSpreadTicks * tick + skew) / tick) * tick, quote.bid);
  const ask = Math.max(Math.ceil((mid + halfSpreadTicks * tick + skew) / tick) * tick, quote.ask);
  quoteSide(ctx, 'BUY', inventory < maxPosition ? bid : undefined);
  quoteSide(ctx, 'SELL', inventory > -maxPosition ? ask : undefined);
}

/**
 * A two-sided market maker: post-only quotes around the mid, skewed against the inventory, with
 * one side withdrawn once the position reaches `maxPosition`. Cancels its quotes on stop.
 */
export const marketMaker = defineStrategy<MarketMakerParams, MarketMakerState>({
  name: 'market-maker',
  description: 'Two-sided post-only quotes around the mid with inventory skew and a position cap.',
  params,
  state: () => ({ bid: { ref: undefined }, ask: { ref: undefined }, tick: 0 }),
  onStart: (ctx) => {
    const spec = ctx.instrument(ctx.params.sym);
    if (spec === undefined) throw new Error(`market-maker: unknown instrument ${ctx.params.sym}`);
    ctx.state.tick = spec.tickSize.toNumber();
  },
  onQuote: (ctx, quote) => {
    if (quote.sym === ctx.params.sym && quote.bid < quote.ask) requote(ctx, quote);
  },
  onStop: (ctx) =>
    ctx.openOrders(ctx.params.sym).length > 0 ? ctx.order.cancelMany({ sym: ctx.params.sym }) : undefined,
});
