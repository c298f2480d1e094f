import { z } from 'zod';
import { defineStrategy, type StrategyContext, sma, type WarmIndicator } from '../core/kernel/index.ts';
import { BAR_INTERVAL_MS, type BarInterval, type Execution } from '../core/model/index.ts';

const INTERVALS = Object.keys(BAR_INTERVAL_MS) as [BarInterval, ...BarInterval[]];

const params = z
  .object({
    sym: z.string(),
    interval: z.enum(INTERVALS).default('1m'),
    qty: z.number().positive(),
    /** Entry filter: go long when a bar closes above its SMA of this many bars. */
    trendBars: z.number().int().min(2).default(20),
    /** Take profit this far above the entry, as a fraction (0.01 = 1 %). */
    takeProfit: z.number().positive().max(1),
    /** Stop loss this far below the entry, as a fraction. */
    stopLoss: z.number().positive().max(1),
    /** `attached`: tp/sl fields on the entry order; `algo`: two reduce-only algo orders after the fill. */
    exits: z.enum(['attached', 'algo']).default('attached'),
  })
  .strict();

/** Parameters of the bracket strategy. */
export type BracketParams = z.infer<typeof params>;

interface BracketState {
  readonly trend: WarmIndicator<number, number>;
}

type Ctx = StrategyContext<BracketParams, BracketState>;

function placeAlgoExits(ctx: Ctx, fill: Execution): void {
  const { sym, takeProfit, stopLoss } = ctx.params;
  const qty = ctx.netQty(sym);
  if (!qty.isPositive() || ctx.openAlgoOrders(sym).length > 0) return;
  const entry = fill.price.toNumber();
  ctx.submit([
    ctx.order.algo({
      sym,
      side: 'SELL',
      qty,
      condition: 'GTE',
      triggerPrice: entry * (1 + takeProfit),
      reduceOnly: true,
      round: true,
    }),
    ctx.order.algo({
      sym,
      side: 'SELL',
      qty,
      condition: 'LTE',
      triggerPrice: entry * (1 - stopLoss),
      reduceOnly: true,
      round: true,
    }),
  ]);
}

/**
 * Trend entries with a bracket: when flat and a bar closes above its SMA, buy at market with a
 * take-profit above and a stop-loss below — as the order's tp/sl fields, or as two reduce-only
 * algo orders placed after the fill (the survivor is cancelled once the position is closed).
 */
export const bracket = defineStrategy<BracketParams, BracketState>({
  name: 'bracket',
  description: 'Trend entries protected by take-profit / stop-loss, as tp/sl fields or algo orders.',
  params,
  state: (p) => ({ trend: sma(p.trendBars) }),
  onStart: (ctx) => ctx.watchBars(ctx.params.sym, ctx.params.interval),
  onBar: (ctx, bar) => {
    if (bar.sym !== ctx.params.sym) return;
    const trend = ctx.state.trend.update(bar.close);
    const flat = ctx.netQty(bar.sym).isZero();
    if (trend === undefined || !flat || bar.close <= trend || ctx.openOrders(bar.sym).length > 0) return;
    const { sym, qty, takeProfit, stopLoss, exits } = ctx.params;
    if (exits === 'algo') return ctx.order.market({ sym, side: 'BUY', qty, round: true });
    return ctx.order.market({
      sym,
      side: 'BUY',
      qty,
      round: true,
      tp: { triggerPrice: bar.close * (1 + takeProfit) },
      sl: { triggerPrice: bar.close * (1 - stopLoss) },
    });
  },
  onFill: (ctx, fill) => {
    if (ctx.params.exits === 'algo' && fill.side === 'BUY') placeAlgoExits(ctx, fill);
  },
  onPosition: (ctx, position) => {
    if (position.sym !== ctx.params.sym || !position.positionQty.isZero()) return;
    if (ctx.openAlgoOrders(position.sym).length > 0) return ctx.order.cancelAllAlgos({ sym: position.sym });
  },
});
