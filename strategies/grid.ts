import { z } from 'zod';
import { defineStrategy, type StrategyContext } from '../core/kernel/index.ts';
import type { Execution } from '../core/model/index.ts';

const params = z
  .object({
    sym: z.string(),
    /** Levels on each side of the reference price. */
    levels: z.number().int().min(1).max(50).default(5),
    /** Distance between levels, in ticks. */
    stepTicks: z.number().int().min(1).default(10),
    /** Quantity of each level's order. */
    qtyPerLevel: z.number().positive(),
    /** Re-centre the ladder when the mid leaves it by this many steps. */
    recenterSteps: z.number().int().min(1).default(2),
  })
  .strict();

/** Parameters of the grid. */
export type GridParams = z.infer<typeof params>;

interface GridState {
  /** The price the ladder is centred on; undefined until the first quote. */
  reference: number | undefined;
  step: number;
}

type Ctx = StrategyContext<GridParams, GridState>;

function layLadder(ctx: Ctx, reference: number): void {
  const { sym, levels, qtyPerLevel } = ctx.params;
  const step = ctx.state.step;
  ctx.state.reference = reference;
  const intents = [];
  for (let level = 1; level <= levels; level++) {
    intents.push(
      ctx.order.limit({ sym, side: 'BUY', qty: qtyPerLevel, price: reference - level * step, round: true }),
    );
    intents.push(
      ctx.order.limit({ sym, side: 'SELL', qty: qtyPerLevel, price: reference + level * step, round: true }),
    );
  }
  ctx.submit(intents);
}

/** A filled rung is replaced one step back on the other side, taking the step as profit. */
function replaceRung(ctx: Ctx, fill: Execution): void {
  const order = ctx.orderByRef(fill.clientOrderId);
  if (order === undefined || order.orderState !== 'FILLED') return;
  const price = order.limitPrice.toNumber();
  const buy = order.side === 'BUY';
  const side = buy ? 'SELL' : 'BUY';
  const at = buy ? price + ctx.state.step : price - ctx.state.step;
  ctx.submit(ctx.order.limit({ sym: order.sym, side, qty: order.orderQty, price: at, round: true }));
}

/**
 * A ladder of limit orders around a reference price (the first mid): buys below, sells above,
 * `stepTicks` apart. A filled rung is replaced one step away on the other side; when the mid
 * leaves the ladder by `recenterSteps` steps, every order is cancelled and the ladder re-laid.
 */
export const grid = defineStrategy<GridParams, GridState>({
  name: 'grid',
  description: 'Limit ladder around a reference price, re-laid when the market walks away.',
  params,
  state: () => ({ reference: undefined, step: 0 }),
  onStart: (ctx) => {
    const spec = ctx.instrument(ctx.params.sym);
    if (spec === undefined) throw new Error(`grid: unknown instrument ${ctx.params.sym}`);
    ctx.state.step = spec.tickSize.toNumber() * ctx.params.stepTicks;
  },
  onQuote: (ctx, quote) => {
    if (quote.sym !== ctx.params.sym) return;
    const mid = (quote.bid + quote.ask) / 2;
    const reference = ctx.state.reference;
    if (reference === undefined) return layLadder(ctx, mid);
    const reach = (ctx.params.levels + ctx.params.recenterSteps) * ctx.state.step;
    if (Math.abs(mid - reference) > reach) {
      ctx.submit(ctx.order.cancelMany({ sym: quote.sym }));
      layLadder(ctx, mid);
    }
  },
  onFill: (ctx, fill) => replaceRung(ctx, fill),
  onStop: (ctx) =>
    ctx.openOrders(ctx.params.sym).length > 0 ? ctx.order.cancelMany({ sym: ctx.params.sym }) : undefined,
});
