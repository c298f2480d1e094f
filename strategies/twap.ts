import { z } from 'zod';
import { defineStrategy, type StrategyContext } from '../core/kernel/index.ts';
import { D, type Dec, floorToStep, ZERO } from '../core/model/index.ts';

const params = z
  .object({
    sym: z.string(),
    side: z.enum(['BUY', 'SELL']),
    /** The parent quantity to execute. */
    totalQty: z.number().positive(),
    /** How long the execution may take, ms. */
    durationMs: z.number().int().positive(),
    /** Number of child orders. */
    slices: z.number().int().min(1).max(10_000),
    /** Child limit price: this many ticks through the touch (0 = at the touch). */
    aggressionTicks: z.number().int().min(0).default(1),
  })
  .strict();

/** Parameters of the TWAP executor. */
export type TwapParams = z.infer<typeof params>;

interface TwapState {
  filled: Dec;
  slicesLeft: number;
  child: string | undefined;
  timer: number | undefined;
}

type Ctx = StrategyContext<TwapParams, TwapState>;

function remaining(ctx: Ctx): Dec {
  return D(ctx.params.totalQty).sub(ctx.state.filled);
}

function sendSlice(ctx: Ctx): void {
  const { sym, side, aggressionTicks } = ctx.params;
  const spec = ctx.instrument(sym);
  const quote = ctx.quote(sym);
  if (spec === undefined || quote === undefined) return;
  const left = remaining(ctx);
  // What the last slices could not fill is spread over the slices still to come.
  const qty = floorToStep(left.div(Math.max(ctx.state.slicesLeft, 1)), spec.lotSize);
  ctx.state.slicesLeft -= 1;
  if (qty.lte(ZERO) || qty.lt(spec.minSize)) return;
  const tick = spec.tickSize.toNumber();
  const price = side === 'BUY' ? quote.ask + aggressionTicks * tick : quote.bid - aggressionTicks * tick;
  const child = ctx.order.ioc({ sym, side, qty, price, round: true });
  ctx.state.child = child.ref;
  ctx.submit(child);
}

/**
 * Time-weighted execution of a parent quantity: one IOC child order per slice, evenly spaced
 * over `durationMs`, each sized from what is still unfilled (so missed fills are caught up by
 * later slices). Stops when the parent is filled or the slices run out.
 */
export const twap = defineStrategy<TwapParams, TwapState>({
  name: 'twap',
  description: 'Executes a parent quantity in IOC child orders over a time window, catching up on misses.',
  params,
  state: (p) => ({ filled: ZERO, slicesLeft: p.slices, child: undefined, timer: undefined }),
  onStart: (ctx) => {
    ctx.state.timer = ctx.every(Math.max(1, Math.floor(ctx.params.durationMs / ctx.params.slices)), 'slice');
  },
  onTimer: (ctx, timer) => {
    if (timer.tag !== 'slice') return;
    const done = remaining(ctx).lte(ZERO) || ctx.state.slicesLeft <= 0;
    if (done && ctx.state.timer !== undefined) {
      ctx.cancelTimer(ctx.state.timer);
      ctx.state.timer = undefined;
      return;
    }
    if (ctx.openOrders(ctx.params.sym).length === 0) sendSlice(ctx);
  },
  onFill: (ctx, fill) => {
    ctx.state.filled = ctx.state.filled.add(fill.quantity);
  },
});
