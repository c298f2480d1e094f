import { describe, expect, it } from 'vitest';
import type { BacktestResult } from '../../../backtest/report/index.ts';
import { SYNTHETIC_BTC_PERP } from '../../../backtest/synthetic/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { onTick, type ScriptStep, scriptedBacktest } from '../../kit/scripted-backtests.ts';
import { syntheticSessionFile } from '../../kit/synthetic-session-files.ts';

const SYM = SYNTHETIC_BTC_PERP.sym;

/** Runs the steps with a kill switch that a market order's taker fee (~0.5 USDT) trips to REDUCING. */
async function tripped(recording: string, steps: readonly ScriptStep[]): Promise<BacktestResult> {
  const gate = new RiskGate({ killSwitch: { dailyLossLimit: '0.1', tripTo: 'REDUCING' } });
  const trips: number[] = [];
  gate.onKillSwitchTrip((t) => trips.push(t.since ?? -1));
  const result = await scriptedBacktest(recording, steps, gate);
  expect(trips).toHaveLength(1);
  return result;
}

const orderStates = (result: BacktestResult): string[] =>
  [...result.orders].map((o) => `${o.side} ${o.orderQty.toFixed()} ${o.orderState}`);

describe('a trip to REDUCING and the orders resting against a position', () => {
  const session = syntheticSessionFile({ seed: 11, minutes: 30, file: 'long2.jsonl.gz' });

  it('keeps both exits of a bracket: the take-profit limit and the stop-loss trigger are alternatives', async () => {
    const result = await tripped(session.path, [
      () => undefined,
      // Long 0.01 at market, with a take-profit SELL 0.01 limit 5 % above and a stop-loss SELL
      // 0.01 (market when triggered) 5 % below: neither can take the position past flat alone.
      (ctx, mid) => [
        ctx.order.market({ sym: SYM, side: 'BUY', qty: 0.01 }),
        ctx.order.limit({ sym: SYM, side: 'SELL', qty: 0.01, price: onTick(mid * 1.05) }),
        ctx.order.algo({
          sym: SYM,
          side: 'SELL',
          qty: 0.01,
          triggerPrice: onTick(mid * 0.95),
          condition: 'LTE',
        }),
      ],
    ]);
    expect(orderStates(result)).toEqual(['BUY 0.01 FILLED', 'SELL 0.01 OPEN']);
    expect([...(result.algoOrders ?? [])].map((a) => `${a.side} ${a.qty.toFixed()} ${a.state}`)).toEqual([
      'SELL 0.01 NEW',
    ]);
  });

  it('keeps no more of an ask ladder than the position, so REDUCING never flips it', async () => {
    const result = await tripped(session.path, [
      () => undefined,
      // Long 0.01 at market and three plain SELL 0.01 limits (a market maker's asks), each fitting
      // the long alone: together they would sell 0.03.
      (ctx, mid) => [
        ctx.order.market({ sym: SYM, side: 'BUY', qty: 0.01 }),
        ctx.order.limit({ sym: SYM, side: 'SELL', qty: 0.01, price: onTick(mid * 1.0002) }),
        ctx.order.limit({ sym: SYM, side: 'SELL', qty: 0.01, price: onTick(mid * 1.0004) }),
        ctx.order.limit({ sym: SYM, side: 'SELL', qty: 0.01, price: onTick(mid * 1.0006) }),
      ],
    ]);
    const kept = orderStates(result).filter((o) => o.startsWith('SELL') && !o.endsWith('CANCELLED'));
    expect(kept).toHaveLength(1);
    const net = [...result.orders].reduce(
      (sum, o) => (o.side === 'BUY' ? sum.add(o.executedQty) : sum.sub(o.executedQty)),
      D(0),
    );
    expect(net.gte(0)).toBe(true);
  });
});
