import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { SYNTHETIC_BTC_PERP } from '../../../backtest/synthetic/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { decodeQuotesAndTrades } from '../../kit/quote-trade-decoder.ts';
import { onTick } from '../../kit/scripted-backtests.ts';
import { syntheticSessionFile } from '../../kit/synthetic-session-files.ts';

const SYM = SYNTHETIC_BTC_PERP.sym;

/**
 * Buys 0.01 at market with a take-profit 5 % above and a stop-loss a hair below the
 * mid, then, once the stop fired, logs what the kernel tells it: each algo order report and the
 * order its stop fired, named by `algoRef`.
 */
function bracket(log: string[]) {
  return defineStrategy({
    name: 'bracket',
    params: z.object({}),
    state: () => ({ sent: false }),
    onQuote: (ctx, q) => {
      if (ctx.state.sent) return undefined;
      ctx.state.sent = true;
      const mid = (q.bid + q.ask) / 2;
      return ctx.order.market({
        sym: SYM,
        side: 'BUY',
        qty: 0.01,
        ref: 'entry',
        tp: { triggerPrice: onTick(mid * 1.05) },
        sl: { triggerPrice: onTick(mid * 0.9995) },
      });
    },
    onAlgoOrder: (_, algo) => {
      log.push(
        `algo ${algo.conditionType} ${algo.state}${algo.cancelReason === undefined ? '' : ` ${algo.cancelReason}`}`,
      );
    },
    onOrder: (ctx, order) => {
      if (order.algoOrderId === undefined || order.orderState !== 'FILLED') return;
      log.push(
        `order fired by ${ctx.algoOrderByRef(order.algoRef ?? '')?.conditionType} ${order.orderState}`,
      );
    },
  });
}

describe('backtest: a strategy hears its algo orders from the simulated venue', () => {
  const session = syntheticSessionFile({ seed: 11, minutes: 30, file: 'algo-hook.jsonl.gz' });

  it('hears its bracket’s legs placed, the stop fire, the order it sent, and the take-profit cancelled with it', async () => {
    const log: string[] = [];
    await runBacktest({
      recordings: [session.path],
      decode: decodeQuotesAndTrades,
      instruments: [SYNTHETIC_BTC_PERP],
      strategies: [{ id: 's', strategy: bracket(log), params: {} }],
      gate: new RiskGate(),
      startingCash: D(10_000_000),
      closeAtEnd: false,
      fillModel: 'touch',
      seed: 1,
    });
    expect(log).toEqual([
      'algo GTE NEW',
      'algo LTE NEW',
      'algo LTE TRIGGERED',
      'algo GTE CANCELLED siblingTriggered',
      'order fired by LTE FILLED',
    ]);
  });
});
