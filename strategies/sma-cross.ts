import { z } from 'zod';
import { defineStrategy, type StrategyContext, sma, type WarmIndicator } from '../core/kernel/index.ts';
import {
  BAR_INTERVAL_MS,
  type BarEvent,
  type BarInterval,
  type Dec,
  type Intent,
  isAboveZero,
} from '../core/model/index.ts';

const INTERVALS = Object.keys(BAR_INTERVAL_MS) as [BarInterval, ...BarInterval[]];

const params = z
  .object({
    sym: z.string().min(1).describe('The sym to trade, e.g. BINANCE_PERP_BTC_USDT.'),
    interval: z.enum(INTERVALS).default('1m').describe('Interval of the bars the averages are taken over.'),
    fast: z.number().int().min(1).default(10).describe('Bars in the fast SMA (shorter than slow).'),
    slow: z.number().int().min(2).default(30).describe('Bars in the slow SMA.'),
    fraction: z
      .number()
      .positive()
      .max(1)
      .default(0.5)
      .describe('Fraction of equity put into the position on each signal (0-1].'),
    allowShort: z
      .boolean()
      .default(true)
      .describe('Reverse into a short on a cross down; when false, only go flat.'),
    // Optional rather than defaulted, so runs that leave it out report the same parameters as before.
    reserveFee: z
      .boolean()
      .optional()
      .describe(
        "Size so the fraction covers the taker fee too, at the signal bar's close (backtesting.py's price x (1 + commission), which backtesting.py takes at the fill price); the order fills at the next open, so a fraction of 1 can still be refused for margin when that open is higher: use e.g. 0.98. Absent = false.",
      ),
  })
  .strict()
  .refine((p) => p.fast < p.slow, { message: 'fast must be shorter than slow', path: ['fast'] });

/** Parameters of the SMA crossover. */
export type SmaCrossParams = z.infer<typeof params>;

interface SmaCrossState {
  readonly fast: WarmIndicator<number, number>;
  readonly slow: WarmIndicator<number, number>;
  /** Sign of fast - slow at the previous bar: 1, -1, or 0 before warm-up. */
  regime: number;
}

type Ctx = StrategyContext<SmaCrossParams, SmaCrossState>;

/**
 * Market orders trading `delta`, split so none exceeds the instrument's maxMarketSize. In BOTH
 * mode the orders first close the opposite leg held (reduce-only) and only the rest opens the other
 * leg (`ctx.order.legs`), so a reversal ends on one leg as in NET mode.
 */
function marketOrders(ctx: Ctx, sym: string, delta: Dec, maxSize: Dec): Intent[] {
  const side = isAboveZero(delta) ? 'BUY' : 'SELL';
  const orders: Intent[] = [];
  for (const leg of ctx.order.legs(sym, side, delta.abs(), ctx.referencePrice(sym))) {
    for (let left = leg.qty; isAboveZero(left); left = left.sub(maxSize)) {
      orders.push(ctx.order.market({ sym, side, ...leg, qty: left.gt(maxSize) ? maxSize : left }));
    }
  }
  return orders;
}

function onCross(ctx: Ctx, bar: BarEvent, regime: number): Intent[] | undefined {
  const spec = ctx.instrument(bar.sym);
  if (spec === undefined) return undefined;
  const size = ctx.size.equityFraction(bar.sym, ctx.params.fraction, bar.close, {
    reserveFee: ctx.params.reserveFee === true,
  });
  const target = regime > 0 ? size : ctx.params.allowShort ? size.neg() : size.mul(0);
  const delta = target.sub(ctx.netQty(bar.sym));
  return delta.isZero() ? undefined : marketOrders(ctx, bar.sym, delta, spec.maxMarketSize);
}

/**
 * SMA crossover on closed bars: long when the fast SMA crosses above the slow one, short (or
 * flat when `allowShort` is false) when it crosses below. No signal before both averages are
 * warm, and the regime seen at warm-up is not itself a cross. Each signal sizes the target
 * position as `fraction` of equity at the bar's close (fee included with `reserveFee`), floored to the lot
 * (zero under minNotional, as `ctx.size` gives it), and trades the
 * difference from the current position at market (in pieces of at most the instrument's
 * maxMarketSize). A cross while an order is still open is skipped.
 * @example
 * { id: 'sma1', strategy: smaCross, params: { sym: 'BINANCE_PERP_BTC_USDT', fast: 10, slow: 30, fraction: 0.5 } }
 */
export const smaCross = defineStrategy<SmaCrossParams, SmaCrossState>({
  name: 'sma-cross',
  description: 'SMA crossover on bars; long/short reversal sized by a fraction of equity.',
  params,
  state: (p) => ({ fast: sma(p.fast), slow: sma(p.slow), regime: 0 }),
  onStart: (ctx) => ctx.watchBars(ctx.params.sym, ctx.params.interval),
  onBar: (ctx, bar) => {
    if (bar.sym !== ctx.params.sym) return;
    const fast = ctx.state.fast.update(bar.close);
    const slow = ctx.state.slow.update(bar.close);
    if (fast === undefined || slow === undefined || fast === slow) return;
    const regime = fast > slow ? 1 : -1;
    const crossed = ctx.state.regime !== 0 && regime !== ctx.state.regime;
    ctx.state.regime = regime;
    if (!crossed || ctx.openOrders(bar.sym).length > 0) return;
    return onCross(ctx, bar, regime);
  },
});
