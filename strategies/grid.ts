import { z } from 'zod';
import { defineStrategy, type StrategyContext } from '../core/kernel/index.ts';
import {
  asNumber,
  D,
  type Dec,
  type Intent,
  type Order,
  type OrderSide,
  parseSym,
} from '../core/model/index.ts';

const params = z
  .object({
    sym: z.string().min(1).describe('The sym to lay the ladder on.'),
    levels: z
      .number()
      .int()
      .min(1)
      .max(50)
      .default(5)
      .describe('Levels on each side of the reference price.'),
    stepTicks: z.number().int().min(1).default(10).describe('Distance between levels, in ticks.'),
    qtyPerLevel: z.number().positive().describe("Quantity of each level's order."),
    recenterSteps: z
      .number()
      .int()
      .min(1)
      .default(2)
      .describe('Re-centre the ladder when the mid leaves it by this many steps beyond its outermost level.'),
  })
  .strict();

/** Parameters of the grid. */
export type GridParams = z.infer<typeof params>;

interface GridState {
  /** The tick the ladder is centred on; undefined until the first quote. */
  reference: number | undefined;
  tick: Dec;
  tickN: number;
  /** The base coin of a spot sym, whose sells need it held; undefined for derivatives. */
  spotBase: string | undefined;
}

type Ctx = StrategyContext<GridParams, GridState>;

function rung(ctx: Ctx, side: OrderSide, ticks: number, qty: Dec | number): Intent {
  const price = ctx.state.tick.mul(ticks);
  return ctx.order.limit({ sym: ctx.params.sym, side, qty, price, round: true });
}

function layLadder(ctx: Ctx, reference: number): Intent[] {
  const { levels, stepTicks, qtyPerLevel } = ctx.params;
  ctx.state.reference = reference;
  const base = ctx.state.spotBase;
  // A spot sell pays with the coin it sells: lay only as many sells as the coin held covers.
  const sells =
    base === undefined ? levels : Math.min(levels, Math.floor(asNumber(ctx.balance(base)) / qtyPerLevel));
  const intents: Intent[] = [];
  for (let level = 1; level <= levels; level++) {
    intents.push(rung(ctx, 'BUY', reference - level * stepTicks, qtyPerLevel));
    if (level <= sells) intents.push(rung(ctx, 'SELL', reference + level * stepTicks, qtyPerLevel));
  }
  return intents;
}

/** Why the grid halts in BOTH mode rather than lay its ladder. */
const BOTH_MODE_REFUSAL =
  'grid: the portfolio is in BOTH (hedge) position mode, where its ladder would open both legs at ' +
  'once (every resting buy opens LONG, every resting sell SHORT, none closing the other); switch ' +
  'the portfolio to NET mode to run it';

/** A filled rung is replaced one step away on the other side, taking the step as profit. */
function replaceRung(ctx: Ctx, order: Order): Intent {
  const ticks = Math.round(asNumber(order.limitPrice) / ctx.state.tickN);
  const step = ctx.params.stepTicks;
  return order.side === 'BUY'
    ? rung(ctx, 'SELL', ticks + step, order.orderQty)
    : rung(ctx, 'BUY', ticks - step, order.orderQty);
}

/**
 * A ladder of limit orders around a reference price (the first mid, on the tick): `levels` buys
 * below and as many sells above, `stepTicks` apart (on a spot sym only as many sells as the base
 * coin held covers: a spot sell pays with the coin it sells). When a rung is completely filled it is
 * replaced one step away on the other side (a filled buy by a sell one step up, a filled sell by
 * a buy one step down). When the mid leaves the ladder by `recenterSteps` steps beyond its
 * outermost level, every order is cancelled and the ladder re-laid around the new mid. Prices are
 * computed in whole ticks, so every rung sits exactly on the tick grid. Cancels its orders on stop;
 * restarted, it cancels the rungs its earlier run left before laying its ladder. NET mode only:
 * in BOTH (hedge) mode it halts with a fault saying why at its first quote, instead of building
 * both legs with rungs that rest on each side before either leg is held.
 * @example
 * { id: 'grid1', strategy: grid, params: { sym: 'BINANCE_PERP_BTC_USDT', levels: 5, stepTicks: 10, qtyPerLevel: 0.01 } }
 */
export const grid = defineStrategy<GridParams, GridState>({
  name: 'grid',
  description: 'Limit ladder around a reference price, re-laid when the market walks away.',
  params,
  state: () => ({ reference: undefined, tick: D(0), tickN: 0, spotBase: undefined }),
  onStart: (ctx) => {
    const spec = ctx.instrument(ctx.params.sym);
    if (spec === undefined) throw new Error(`grid: unknown instrument ${ctx.params.sym}`);
    ctx.state.tick = spec.tickSize;
    ctx.state.tickN = spec.tickSize.toNumber();
    const id = parseSym(ctx.params.sym);
    ctx.state.spotBase = id.kind === 'crypto' && id.businessType === 'SPOT' ? id.base : undefined;
  },
  onQuote: (ctx, quote) => {
    if (quote.sym !== ctx.params.sym || !(quote.bid > 0 && quote.bid < quote.ask)) return;
    if (ctx.positionMode() === 'BOTH') throw new Error(BOTH_MODE_REFUSAL);
    const tick = ctx.state.tickN;
    // In whole ticks first: (100 + 100.1) / 2 / 0.1 is 1000.4999.. in floating point.
    const mid = Math.round((Math.round(quote.bid / tick) + Math.round(quote.ask / tick)) / 2);
    const reference = ctx.state.reference;
    if (reference === undefined) {
      // Restarted, it finds its earlier run's rungs (adopted): they go, and the ladder is laid anew.
      const leftOver = ctx.openOrders(quote.sym).length > 0;
      return leftOver
        ? [ctx.order.cancelMany({ sym: quote.sym }), ...layLadder(ctx, mid)]
        : layLadder(ctx, mid);
    }
    const reach = (ctx.params.levels + ctx.params.recenterSteps) * ctx.params.stepTicks;
    if (Math.abs(mid - reference) <= reach) return;
    return [ctx.order.cancelMany({ sym: quote.sym }), ...layLadder(ctx, mid)];
  },
  // The order update, not the fill: a venue may report the fill before the order is FILLED.
  onOrder: (ctx, order) => (order.orderState === 'FILLED' ? replaceRung(ctx, order) : undefined),
  onStop: (ctx) =>
    ctx.openOrders(ctx.params.sym).length > 0 ? ctx.order.cancelMany({ sym: ctx.params.sym }) : undefined,
});
