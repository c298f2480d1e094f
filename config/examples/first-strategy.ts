import { z } from 'zod';
import { defineStrategy, rsi } from '../../core/kernel/index.ts';

/** Buys oversold and sells overbought 1-minute closes, one lot at a time, long only. */
export default defineStrategy({
  name: 'rsi-swing',
  description: 'Long on RSI below `low`, flat again on RSI above `high`.',
  params: z.object({
    sym: z.string(),
    qty: z.number().positive(),
    period: z.number().int().min(2).default(14),
    low: z.number().default(30),
    high: z.number().default(70),
  }),
  state: (p) => ({ rsi: rsi(p.period) }),
  onStart: (ctx) => ctx.watchBars(ctx.params.sym, '1m'),
  onBar: (ctx, bar) => {
    const value = ctx.state.rsi.update(bar.close);
    if (value === undefined || ctx.openOrders(bar.sym).length > 0) return;
    const long = ctx.netQty(bar.sym).gt(0);
    if (!long && value < ctx.params.low) {
      return ctx.order.market({ sym: bar.sym, side: 'BUY', qty: ctx.params.qty, round: true });
    }
    if (long && value > ctx.params.high) {
      return ctx.order.market({ sym: bar.sym, side: 'SELL', qty: ctx.netQty(bar.sym), reduceOnly: true });
    }
  },
  onDenied: (ctx, denial) => console.warn(`${ctx.id} denied: ${denial.reason}`),
});
