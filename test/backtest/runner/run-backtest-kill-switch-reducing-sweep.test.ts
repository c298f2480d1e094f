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

/** A strategy that runs `steps[i]` on the i-th quote. */
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

describe('runBacktest: a kill switch trip leaves no order armed that adds risk', () => {
  const session = syntheticSessionFile({ seed: 11, minutes: 30, file: 'long2.jsonl.gz' });

  const run = async (tripTo: 'REDUCING' | 'HALTED', steps: readonly Step[], dailyLossLimit = '0.1') => {
    const gate = new RiskGate({ killSwitch: { dailyLossLimit, tripTo } });
    const trips: number[] = [];
    gate.onKillSwitchTrip((t) => trips.push(t.since ?? -1));
    const result = await runBacktest({
      recordings: [session.path],
      decode: decodeQuotesAndTrades,
      instruments: [SYNTHETIC_BTC_PERP],
      strategies: [{ id: 's', strategy: scripted(steps), params: {} }],
      gate,
      startingCash: D(10_000_000),
      closeAtEnd: false,
      fillModel: 'touch',
      seed: 1,
    });
    return { trips, result };
  };

  it.each(['REDUCING', 'HALTED'] as const)(
    'takes on no new exposure after the trip to %s',
    async (tripTo) => {
      // One hook: BUY 0.01 at market (its taker fee, ~0.5 USDT, trips dailyLossLimit 0.1 at its
      // fill), a BUY 1 limit 0.1 % under the mid, and a GTE BUY 0.5 trigger 0.1 % over it. After the
      // trip only risk-reducing intents pass, but the two resting ones are the venue's to fire.
      const { trips, result } = await run(tripTo, [
        () => undefined,
        (ctx, mid) => [
          ctx.order.market({ sym: SYM, side: 'BUY', qty: 0.01 }),
          ctx.order.limit({ sym: SYM, side: 'BUY', qty: 1, price: tick(mid * 0.999) }),
          ctx.order.algo({
            sym: SYM,
            side: 'BUY',
            qty: 0.5,
            triggerPrice: tick(mid * 1.001),
            condition: 'GTE',
          }),
        ],
      ]);
      expect(trips).toHaveLength(1);
      const afterTrip = [...result.fills].filter((f) => f.timestamp > (trips[0] as number));
      expect(afterTrip.map((f) => `${f.side} ${f.quantity.toFixed()}`)).toEqual([]);
    },
  );

  it('keeps the orders that only take risk off on a trip to REDUCING', async () => {
    // Long 0.01 (its fee, ~0.5 USDT, stays under dailyLossLimit 0.7). Then a reduce-only SELL
    // 0.01 far above (a take-profit), a plain LTE SELL 0.01 stop far below (a stop-loss within the
    // position), a plain SELL 0.03 far above (it would flip the position: adds risk) and a BUY
    // 0.01 far below. A second BUY 0.01 at market: its fee trips the switch to REDUCING.
    let placedAt = 0;
    const { trips, result } = await run(
      'REDUCING',
      [
        () => undefined,
        (ctx) => [ctx.order.market({ sym: SYM, side: 'BUY', qty: 0.01 })],
        () => undefined,
        (ctx, mid) => {
          placedAt = ctx.now();
          return [
            ctx.order.limit({ sym: SYM, side: 'SELL', qty: 0.01, price: tick(mid * 1.05), reduceOnly: true }),
            ctx.order.algo({
              sym: SYM,
              side: 'SELL',
              qty: 0.01,
              triggerPrice: tick(mid * 0.95),
              condition: 'LTE',
            }),
            ctx.order.limit({ sym: SYM, side: 'SELL', qty: 0.03, price: tick(mid * 1.06) }),
            ctx.order.limit({ sym: SYM, side: 'BUY', qty: 0.01, price: tick(mid * 0.94) }),
          ];
        },
        () => undefined,
        (ctx) => [ctx.order.market({ sym: SYM, side: 'BUY', qty: 0.01 })],
      ],
      '0.7',
    );
    expect(trips).toHaveLength(1);
    expect(trips[0]).toBeGreaterThan(placedAt);
    const states = [...result.orders].map((o) => `${o.side} ${o.orderQty.toFixed()} ${o.orderState}`);
    expect(states).toEqual([
      'BUY 0.01 FILLED',
      'SELL 0.01 OPEN',
      'SELL 0.03 CANCELLED',
      'BUY 0.01 CANCELLED',
      'BUY 0.01 FILLED',
    ]);
    expect([...(result.algoOrders ?? [])].map((a) => `${a.side} ${a.qty.toFixed()} ${a.state}`)).toEqual([
      'SELL 0.01 NEW',
    ]);
  });
});
