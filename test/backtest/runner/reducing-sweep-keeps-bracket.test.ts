import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { SYNTHETIC_BTC_PERP } from '../../../backtest/synthetic/index.ts';
import { defineStrategy, type StrategyContext } from '../../../core/kernel/index.ts';
import { D, type Intent } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { decodeQuotesAndTrades } from '../../kit/quote-trade-decoder.ts';
import { syntheticSessionFile } from '../../kit/synthetic-session-files.ts';

const SYM = SYNTHETIC_BTC_PERP.sym;
const tick = (p: number) => Math.round(p * 10) / 10;
type Step = (ctx: StrategyContext<Record<string, never>, { n: number }>, mid: number) => Intent[] | undefined;
function scripted(steps: readonly Step[]) {
  return defineStrategy({
    name: 'scripted',
    params: z.object({}),
    state: () => ({ n: 0 }),
    onQuote: (ctx, q) => {
      const step = steps[ctx.state.n];
      if (step === undefined) return;
      ctx.state.n += 1;
      return step(ctx, (q.bid + q.ask) / 2);
    },
  });
}

describe('a trip to REDUCING and a position’s bracket (take-profit limit + stop-loss trigger)', () => {
  const session = syntheticSessionFile({ seed: 11, minutes: 30, file: 'long2.jsonl.gz' });

  it('keeps the stop-loss of the position (the two exits are alternatives, as maxPositionQty treats them)', async () => {
    const gate = new RiskGate({ killSwitch: { dailyLossLimit: '0.1', tripTo: 'REDUCING' } });
    const trips: number[] = [];
    gate.onKillSwitchTrip((t) => trips.push(t.since ?? -1));
    const result = await runBacktest({
      recordings: [session.path],
      decode: decodeQuotesAndTrades,
      instruments: [SYNTHETIC_BTC_PERP],
      strategies: [
        {
          id: 's',
          params: {},
          strategy: scripted([
            () => undefined,
            // Long 0.01 at market (its taker fee, ~0.5 USDT, trips dailyLossLimit 0.1 to REDUCING),
            // with the usual bracket: a take-profit SELL 0.01 limit 5 % above and a stop-loss SELL
            // 0.01 (market when triggered) 5 % below. Neither can ever make the position exceed 0.01.
            (ctx, mid) => [
              ctx.order.market({ sym: SYM, side: 'BUY', qty: 0.01 }),
              ctx.order.limit({ sym: SYM, side: 'SELL', qty: 0.01, price: tick(mid * 1.05) }),
              ctx.order.algo({
                sym: SYM,
                side: 'SELL',
                qty: 0.01,
                triggerPrice: tick(mid * 0.95),
                condition: 'LTE',
              }),
            ],
          ]),
        },
      ],
      gate,
      startingCash: D(10_000_000),
      closeAtEnd: false,
      fillModel: 'touch',
      seed: 1,
    });
    expect(trips).toHaveLength(1);
    expect([...result.orders].map((o) => `${o.side} ${o.orderQty.toFixed()} ${o.orderState}`)).toEqual([
      'BUY 0.01 FILLED',
      'SELL 0.01 OPEN',
    ]);
    // The stop-loss should still be armed after the trip to REDUCING.
    expect([...(result.algoOrders ?? [])].map((a) => `${a.side} ${a.qty.toFixed()} ${a.state}`)).toEqual([
      'SELL 0.01 NEW',
    ]);
  });
});
