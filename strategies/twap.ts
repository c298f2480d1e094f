import { z } from 'zod';
import { defineStrategy, type StrategyContext } from '../core/kernel/index.ts';
import { asNumber, D, type Dec, floorToStep, type Intent, ZERO } from '../core/model/index.ts';

const params = z
  .object({
    sym: z.string().min(1).describe('The sym to execute.'),
    side: z.enum(['BUY', 'SELL']).describe('Buy or sell the parent quantity.'),
    totalQty: z.number().positive().describe('The parent quantity to execute.'),
    durationMs: z.number().int().positive().describe('How long the execution may take, ms.'),
    slices: z.number().int().min(1).max(10_000).describe('Number of child orders.'),
    aggressionTicks: z
      .number()
      .int()
      .min(0)
      .default(1)
      .describe('Child limit price: this many ticks through the touch (0 = at the touch).'),
  })
  .strict()
  .refine((p) => p.durationMs >= p.slices, {
    message: 'durationMs must allow at least 1 ms per slice',
    path: ['durationMs'],
  });

/** Parameters of the TWAP executor. */
export type TwapParams = z.infer<typeof params>;

interface TwapState {
  filled: Dec;
  /** Slice times passed so far (a slice skipped while a child was open counts too). */
  slicesDue: number;
  timer: number | undefined;
}

type Ctx = StrategyContext<TwapParams, TwapState>;

function remaining(ctx: Ctx): Dec {
  return D(ctx.params.totalQty).sub(ctx.state.filled);
}

function finish(ctx: Ctx): void {
  if (ctx.state.timer !== undefined) ctx.cancelTimer(ctx.state.timer);
  ctx.state.timer = undefined;
}

/**
 * The child for the current slice: what is left spread over the slices still to come (this one
 * included); in BOTH mode two orders when it both closes the opposite leg and opens its own.
 */
function slice(ctx: Ctx): Intent[] | undefined {
  const { sym, side, slices, aggressionTicks } = ctx.params;
  const spec = ctx.instrument(sym);
  const quote = ctx.quote(sym);
  if (spec === undefined || quote === undefined) return undefined;
  const slicesLeft = Math.max(1, slices - ctx.state.slicesDue + 1);
  const qty = floorToStep(remaining(ctx).div(slicesLeft), spec.lotSize);
  if (qty.lt(spec.minSize) || !qty.gt(0)) return undefined;
  const tick = spec.tickSize.toNumber();
  const touch = Math.round((side === 'BUY' ? quote.ask : quote.bid) / tick);
  const ticks = side === 'BUY' ? touch + aggressionTicks : touch - aggressionTicks;
  const price = spec.tickSize.mul(ticks);
  // In BOTH mode a child first closes the opposite leg held and only the rest opens its own leg.
  return ctx.order
    .legs(sym, side, qty, asNumber(price))
    .map((leg) => ctx.order.ioc({ sym, side, ...leg, price }));
}

/**
 * Time-weighted execution of a parent quantity: `slices` timer ticks evenly spaced over
 * `durationMs` (the first one period after start), each sending one IOC child limit order
 * `aggressionTicks` through the touch. A child is sized as what is still unfilled divided by the
 * slices left, so what a slice missed (no liquidity, price ran away, a child still open at the
 * next tick and therefore skipped) is caught up by the later ones, the last slice taking all that
 * remains; when the last slice finds a child still open, the timer keeps ticking until the rest
 * has been sent once. Children never add up to more than the parent: each is sized from the
 * parent minus the fills, and no child is sent while another is open. Stops when the parent is
 * filled or the last slice has been sent.
 * @example
 * { id: 'twap1', strategy: twap, params: { sym: 'BINANCE_PERP_BTC_USDT', side: 'BUY', totalQty: 1, durationMs: 600000, slices: 20 } }
 */
export const twap = defineStrategy<TwapParams, TwapState>({
  name: 'twap',
  description: 'Executes a parent quantity in IOC child orders over a time window, catching up on misses.',
  params,
  state: () => ({ filled: ZERO, slicesDue: 0, timer: undefined }),
  onStart: (ctx) => {
    ctx.state.timer = ctx.every(Math.floor(ctx.params.durationMs / ctx.params.slices), 'slice');
  },
  onTimer: (ctx, timer) => {
    if (timer.tag !== 'slice') return undefined;
    ctx.state.slicesDue += 1;
    if (!remaining(ctx).gt(0)) return finish(ctx);
    // A child still open: this slice is caught up by the next tick, past the window if need be.
    if (ctx.openOrders(ctx.params.sym).length > 0) return undefined;
    if (ctx.state.slicesDue >= ctx.params.slices) finish(ctx);
    return slice(ctx);
  },
  onFill: (ctx, fill) => {
    ctx.state.filled = ctx.state.filled.add(fill.quantity);
    if (!remaining(ctx).gt(0)) finish(ctx);
  },
});
