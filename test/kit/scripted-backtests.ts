import { z } from 'zod';
import type { BacktestResult } from '../../backtest/report/index.ts';
import { runBacktest } from '../../backtest/runner/index.ts';
import { SYNTHETIC_BTC_PERP } from '../../backtest/synthetic/index.ts';
import { defineStrategy, type StrategyContext } from '../../core/kernel/index.ts';
import { D, type Dec, type Intent } from '../../core/model/index.ts';
import { RiskGate, type RiskGateConfigInput } from '../../core/risk/index.ts';
import { decodeQuotesAndTrades } from './quote-trade-decoder.ts';

/** One step of a scripted strategy: what it sends on one quote (the mid given), if anything. */
export type ScriptStep = (
  ctx: StrategyContext<Record<string, never>, { n: number; refs: string[] }>,
  mid: number,
) => Intent | Intent[] | undefined;

/**
 * A GTE BUY 0.01 trigger on the synthetic BTC perp 0.02 % above the mid (~950 USDT): small enough
 * for every limit the risk tests set, so what they judge is a later change of it.
 * @param ctx - the scripted strategy's context
 * @param mid - the quote's mid
 * @returns the algo order intent
 */
export function smallBuyTrigger(ctx: Parameters<ScriptStep>[0], mid: number) {
  return ctx.order.algo({
    sym: SYNTHETIC_BTC_PERP.sym,
    side: 'BUY',
    qty: 0.01,
    triggerPrice: onTick(mid * 1.0002),
    condition: 'GTE',
  });
}

/**
 * A strategy that runs `steps[i]` on the i-th quote, one step per quote (so the venue's answers
 * come in between), and nothing after the last; `ctx.state.refs` keeps what the steps put there.
 * @param steps - the steps
 * @returns the strategy
 */
export function scripted(steps: readonly ScriptStep[]) {
  return defineStrategy({
    name: 'scripted',
    params: z.object({}),
    state: () => ({ n: 0, refs: [] as string[] }),
    onQuote: (ctx, q) => {
      const step = steps[ctx.state.n];
      if (step === undefined) return undefined;
      ctx.state.n += 1;
      return step(ctx, (q.bid + q.ask) / 2);
    },
  });
}

/**
 * Backtests a scripted strategy (id `s`) on the SYNTHETIC BTC perpetual of a recording: touch
 * fills, 10 000 000 USDT, no close at the end.
 * @param recording - the recording's path
 * @param steps - the strategy's steps
 * @param risk - the risk config, or a gate made beforehand
 * @returns the result
 */
export function scriptedBacktest(
  recording: string,
  steps: readonly ScriptStep[],
  risk: RiskGateConfigInput | RiskGate,
): Promise<BacktestResult> {
  return runBacktest({
    recordings: [recording],
    decode: decodeQuotesAndTrades,
    instruments: [SYNTHETIC_BTC_PERP],
    strategies: [{ id: 's', strategy: scripted(steps), params: {} }],
    gate: risk instanceof RiskGate ? risk : new RiskGate(risk),
    startingCash: D(10_000_000),
    closeAtEnd: false,
    fillModel: 'touch',
    seed: 1,
  });
}

/**
 * The largest |position| the fills reached, in order.
 * @param fills - the run's fills
 * @returns the largest absolute position
 */
export function maxAbsPosition(fills: Iterable<{ readonly side: string; readonly quantity: Dec }>): Dec {
  let position = D(0);
  let max = D(0);
  for (const fill of fills) {
    position = fill.side === 'BUY' ? position.add(fill.quantity) : position.sub(fill.quantity);
    if (position.abs().gt(max)) max = position.abs();
  }
  return max;
}

/**
 * A price on the SYNTHETIC BTC perpetual's 0.1 tick.
 * @param price - any price
 * @returns it rounded to the tick
 */
export function onTick(price: number): number {
  return Math.round(price * 10) / 10;
}

/**
 * A run's denials as `intentKind check` lines, in order.
 * @param result - the run's result
 * @returns the lines (none when the run denied nothing)
 */
export function deniedIntents(result: BacktestResult): string[] {
  return [...(result.denials ?? [])].map((d) => `${d.intentKind} ${d.check}`);
}
