import { z } from 'zod';
import { defineStrategy, type StrategyContext, sma, type WarmIndicator } from '../core/kernel/index.ts';
import {
  BAR_INTERVAL_MS,
  type BarInterval,
  type Intent,
  isFinalOrderState,
  type Order,
} from '../core/model/index.ts';

const INTERVALS = Object.keys(BAR_INTERVAL_MS) as [BarInterval, ...BarInterval[]];

const params = z
  .object({
    sym: z.string().min(1).describe('The sym to trade.'),
    interval: z.enum(INTERVALS).default('1m').describe('Interval of the bars the trend filter reads.'),
    qty: z.number().positive().describe('Quantity of each entry, in base units (or contracts).'),
    trendBars: z
      .number()
      .int()
      .min(2)
      .default(20)
      .describe('Entry filter: go long when a bar closes above its SMA of this many bars.'),
    takeProfit: z
      .number()
      .positive()
      .max(1)
      .describe('Take profit this far above the entry, as a fraction (0.01 = 1 %).'),
    stopLoss: z
      .number()
      .positive()
      .lt(1)
      .describe(
        'Stop loss this far below the entry, as a fraction (below 1: a stop at or under zero never triggers).',
      ),
    exits: z
      .enum(['attached', 'algo'])
      .default('attached')
      .describe(
        '`attached`: tp/sl fields on the entry order; `algo`: two reduce-only algo orders after the fill.',
      ),
  })
  .strict();

/** Parameters of the bracket strategy. */
export type BracketParams = z.infer<typeof params>;

interface BracketState {
  readonly trend: WarmIndicator<number, number>;
  /** The entry order in flight or filled, until its exits are placed. */
  entry: string | undefined;
}

type Ctx = StrategyContext<BracketParams, BracketState>;

/** Two reduce-only SELL algo orders for what the entry filled, around its average price. */
function algoExits(ctx: Ctx, entry: Order): Intent[] {
  const { sym, takeProfit, stopLoss } = ctx.params;
  const qty = entry.executedQty;
  const price = entry.executedAvgPrice.toNumber();
  const exit = { sym, side: 'SELL', qty, reduceOnly: true, round: true } as const;
  return [
    ctx.order.algo({ ...exit, condition: 'GTE', triggerPrice: price * (1 + takeProfit) }),
    ctx.order.algo({ ...exit, condition: 'LTE', triggerPrice: price * (1 - stopLoss) }),
  ];
}

/**
 * Trend entries with a bracket: when flat, with no order open, and a closed bar is above its SMA
 * of `trendBars` bars, buy `qty` at market protected by a take-profit `takeProfit` above and a
 * stop-loss `stopLoss` below. In `attached` mode the exits ride on the entry as its tp/sl fields
 * (from the bar's close; the venue opens them when the entry fills and cancels the survivor). In
 * `algo` mode, once the entry order is done (FILLED, or ended after a partial fill), two
 * reduce-only algo orders are placed around its average fill price for the quantity it filled; when the position is flat again the surviving
 * algo order is cancelled.
 * @example
 * { id: 'br1', strategy: bracket, params: { sym: 'BINANCE_PERP_BTC_USDT', qty: 0.01, takeProfit: 0.01, stopLoss: 0.005, exits: 'algo' } }
 */
export const bracket = defineStrategy<BracketParams, BracketState>({
  name: 'bracket',
  description: 'Trend entries protected by take-profit / stop-loss, as tp/sl fields or algo orders.',
  params,
  state: (p) => ({ trend: sma(p.trendBars), entry: undefined }),
  onStart: (ctx) => ctx.watchBars(ctx.params.sym, ctx.params.interval),
  onBar: (ctx, bar) => {
    if (bar.sym !== ctx.params.sym) return undefined;
    const trend = ctx.state.trend.update(bar.close);
    const flat = ctx.netQty(bar.sym).isZero();
    if (trend === undefined || !flat || bar.close <= trend || ctx.openOrders(bar.sym).length > 0)
      return undefined;
    const { sym, qty, takeProfit, stopLoss, exits } = ctx.params;
    const entry =
      exits === 'algo'
        ? ctx.order.market({ sym, side: 'BUY', qty, round: true })
        : ctx.order.market({
            sym,
            side: 'BUY',
            qty,
            round: true,
            tp: { triggerPrice: bar.close * (1 + takeProfit) },
            sl: { triggerPrice: bar.close * (1 - stopLoss) },
          });
    ctx.state.entry = entry.ref;
    return entry;
  },
  // The final order update, not the fill: the venue reports the fill before the position, and a
  // market order cut short (CANCELLED after a partial fill) still needs exits for what it bought.
  onOrder: (ctx, order) => {
    if (order.clientOrderId !== ctx.state.entry || !isFinalOrderState(order.orderState)) return undefined;
    ctx.state.entry = undefined;
    return ctx.params.exits === 'algo' && order.executedQty.gt(0) ? algoExits(ctx, order) : undefined;
  },
  onPosition: (ctx, position) => {
    if (position.sym !== ctx.params.sym || !ctx.netQty(position.sym).isZero()) return undefined;
    return ctx.openAlgoOrders(position.sym).length > 0
      ? ctx.order.cancelAllAlgos({ sym: position.sym })
      : undefined;
  },
});
