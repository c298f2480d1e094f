import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D, type Dec } from '../../../core/model/index.ts';
import { RiskGate, type TradingStatus } from '../../../core/risk/index.ts';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2024, 0, 2);
const aTempDir = tempDirsRemovedAfterAll('keel-ks-fill-');

/** Holds the signed position `targets[i]` from the close of the i-th 1m bar, by market orders. */
const targetsOnBars = (targets: readonly number[]) =>
  defineStrategy({
    name: 'targets-on-bars',
    params: z.object({}),
    state: () => ({ bar: 0 }),
    onStart: (ctx) => ctx.watchBars(BTC, '1m'),
    onBar: (ctx) => {
      const target = targets[ctx.state.bar] ?? 0;
      ctx.state.bar += 1;
      const diff = D(target).sub(ctx.netQty(BTC));
      if (diff.isZero()) return undefined;
      return ctx.order.market({ sym: BTC, side: diff.isPositive() ? 'BUY' : 'SELL', qty: diff.abs() });
    },
  });

/**
 * A bar backtest (taker fee 5 bps, 10 000 USDT) of {@link targetsOnBars} under a kill switch, with
 * every equity its gate observed.
 */
async function run(rows: readonly (readonly number[])[], targets: readonly number[], maxDrawdown: number) {
  const recording = await barsRecordingIn(aTempDir(), rows, T0, BTC);
  const gate = new RiskGate({ killSwitch: { maxDrawdown } });
  const observed: { ts: number; equity: Dec }[] = [];
  const observe = gate.observeEquity.bind(gate);
  gate.observeEquity = (now, equity) => {
    observed.push({ ts: now, equity });
    return observe(now, equity);
  };
  const trips: TradingStatus[] = [];
  gate.onKillSwitchTrip((trip) => trips.push(trip));
  const result = await runBacktest({
    ...barRunOptions(
      recording,
      [anInstrument(BTC)],
      [{ id: 's', strategy: targetsOnBars(targets), params: {} }],
    ),
    gate,
    seed: 1,
  });
  return { result, observed, trips, highWater: gate.killSwitchState().marks?.highWater.toFixed() };
}

describe('the kill switch sees a fill at the price it traded at, not at the bar close before it', () => {
  it('does not trip on a gap up to the entry (the position is not valued at the signal bar’s close)', async () => {
    // BUY 10 on the close of bar 1 (100): it fills at bar 2's open, 110, fee 10 x 110 x 0.0005 =
    // 0.55. Equity at the fill is 9999.45 (0.0055 % under 10 000); valued at the signal close, 100,
    // it read 9899.45, a 1.0055 % drawdown that tripped 0.5 %.
    const rows = [
      [100, 101, 99, 100],
      [100, 101, 99, 100],
      [110, 111, 109, 110],
      [110, 111, 109, 110],
    ];
    const { result, observed, trips, highWater } = await run(rows, [0, 10, 10, 10], 0.005);
    expect(trips).toEqual([]);
    const fill = [...result.fills][0];
    expect(`${fill?.side} ${fill?.quantity.toFixed()} @ ${fill?.price.toFixed()}`).toBe('BUY 10 @ 110');
    const afterFill = observed.filter((o) => o.ts >= (fill?.timestamp ?? 0)).map((o) => o.equity.toFixed());
    expect(new Set(afterFill)).toEqual(new Set(['10000', '9999.45']));
    expect(highWater).toBe('10000');
    result.dispose?.();
  });

  it('records no high-water mark above the run’s peak on a gap down to the entry', async () => {
    // BUY 10 on the close of bar 1 (100) fills at bar 2's open, 90 (fee 0.45): 9999.55 at the fill,
    // 9989.55 at bar 3's close 89. Valued at the signal close, the fill read 10 099.55: a high-water
    // mark never reached, from which bar 3 was a 1.09 % drawdown that tripped 1 %.
    const rows = [
      [100, 101, 99, 100],
      [100, 101, 99, 100],
      [90, 91, 89, 90],
      [90, 91, 88, 89],
    ];
    const { result, trips, highWater } = await run(rows, [0, 10, 10, 10], 0.01);
    expect(trips).toEqual([]);
    expect(result.equityCurve.at(-1)?.equity.toFixed()).toBe('9989.55');
    expect(highWater).toBe('10000');
    expect(result.metrics.equityPeak.toFixed()).toBe('10000');
    result.dispose?.();
  });

  it('property: every equity it observes is the run’s own, on a bar close or at a fill, on random bar paths', async () => {
    // Each bar opens at a gap from the last close and moves; the strategy holds -1, 0 or 1 from bar
    // to bar. After a fill every position is at the fill's price, so the equity then is the cash
    // (10 000 + realized - fees); between fills it is the run's curve at a bar close.
    const bar = fc.record({
      gap: fc.integer({ min: -30, max: 30 }),
      move: fc.integer({ min: -30, max: 30 }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(bar, fc.constantFrom(-1, 0, 1)), { minLength: 3, maxLength: 10 }),
        async (steps) => {
          let close = 1000;
          const rows = steps.map(([{ gap, move }]) => {
            const open = close + gap;
            close = open + move;
            return [open, Math.max(open, close) + 1, Math.min(open, close) - 1, close];
          });
          const { result, observed } = await run(
            rows,
            steps.map(([, target]) => target),
            0.99,
          );
          let cash = D(10_000);
          const ownEquity = new Set([cash.toFixed(), ...result.equityCurve.map((p) => p.equity.toFixed())]);
          for (const fill of result.fills) {
            cash = cash.add(fill.rpnl).sub(fill.fee);
            ownEquity.add(cash.toFixed());
          }
          const strange = observed.map((o) => o.equity.toFixed()).filter((e) => !ownEquity.has(e));
          result.dispose?.();
          expect(strange).toEqual([]);
        },
      ),
      { numRuns: 25, seed: 45 },
    );
  }, 120_000);
});
