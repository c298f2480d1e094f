import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { RiskGate, type TradingStatus } from '../../../core/risk/index.ts';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2024, 0, 2);
const aTempDir = tempDirsRemovedAfterAll('keel-halt-sweep-');

/**
 * Buys 10 at market on the close of each 1m bar whose index `entries` lists while flat and
 * without open orders, with a take-profit 2 % and a stop-loss 2 % from that close attached.
 */
const bracketed = (entries: ReadonlySet<number>) =>
  defineStrategy({
    name: 'bracketed',
    params: z.object({}),
    state: () => ({ bar: 0 }),
    onStart: (ctx) => ctx.watchBars(BTC, '1m'),
    onBar: (ctx, bar) => {
      const index = ctx.state.bar;
      ctx.state.bar += 1;
      if (!entries.has(index) || !ctx.netQty(BTC).isZero() || ctx.openOrders(BTC).length > 0)
        return undefined;
      return ctx.order.market({
        sym: BTC,
        side: 'BUY',
        qty: 10,
        tp: { triggerPrice: bar.close * 1.02 },
        sl: { triggerPrice: bar.close * 0.98 },
      });
    },
  });

/** A bar backtest (taker fee 5 bps, 10 000 USDT) of {@link bracketed} under a kill switch tripping to HALTED. */
async function run(rows: readonly (readonly number[])[], entries: readonly number[], maxDrawdown: number) {
  const recording = await barsRecordingIn(aTempDir(), rows, T0, BTC);
  const gate = new RiskGate({ killSwitch: { maxDrawdown } });
  const trips: TradingStatus[] = [];
  gate.onKillSwitchTrip((trip) => trips.push(trip));
  const strategy = bracketed(new Set(entries));
  const result = await runBacktest({
    ...barRunOptions(recording, [anInstrument(BTC)], [{ id: 's', strategy, params: {} }]),
    gate,
    seed: 1,
  });
  return { result, trips };
}

describe('a kill switch trip to HALTED keeps the protective orders, as a fault does, and cancels the rest', () => {
  it('keeps the take-profit and stop-loss the venue attached at the fill that tripped it: the position is not left unprotected', async () => {
    // BUY 10 on bar 1's close (1000) fills at bar 2's open, 1000: its fee, 5, is a drawdown of
    // 0.05 % from 10 000, over the 0.04 % limit, seen at the fill's account report. The venue
    // reports the tp (1020) and sl (980) it attached after that. They protect the open long (the
    // halt denies any close the strategy sends), so they are kept: the tp fills on bar 3 (high
    // 1040) and takes the position flat, as a venue-held exit of a faulted strategy would.
    const rows = [
      [1000, 1010, 990, 1000],
      [1000, 1010, 990, 1000],
      [1000, 1010, 995, 1000],
      [1000, 1040, 1000, 1030],
      [1030, 1040, 1020, 1030],
    ];
    const { result, trips } = await run(rows, [1], 0.0004);
    expect(trips.map((t) => `${t.state} ${t.reason}`)).toEqual([
      'HALTED kill switch: drawdown 0.05 % from the high-water mark 10000 reached the limit 0.04 %',
    ]);
    const fills = [...result.fills];
    expect(fills.map((f) => `${f.side} ${f.quantity.toFixed()} @ ${f.price.toFixed()}`)).toEqual([
      'BUY 10 @ 1000',
      'SELL 10 @ 1020',
    ]);
    expect(trips[0]?.since).toBeGreaterThan(fills[0]?.timestamp ?? 0);
    expect(fills[1]?.clientOrderId).toMatch(/^s-1-tp/);
    expect(result.meta.warnings?.filter((w) => w.includes('kill switch'))).toEqual([
      expect.stringContaining(
        'its sweep cancelled 0 order(s) and algo order(s) that do not protect an open position and kept 3 protective order(s) of open positions: s-1-tp, s-1-sl, s-1-tp-trig',
      ),
    ]);
    result.dispose?.();
  });

  it('property: after the trip only protective exits fill, taking the long towards flat and never past it, on random bar paths', async () => {
    // Bars move up to 3 % from the last close; the strategy enters with a bracket on some bars; a
    // drawdown limit from 0.001 % to 0.1 % trips at an entry's fee (0.05 %), on a later bar, or never.
    const bar = fc.record({
      gap: fc.integer({ min: -10, max: 10 }),
      move: fc.integer({ min: -30, max: 30 }),
      entry: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(bar, { minLength: 3, maxLength: 10 }),
        fc.integer({ min: 1, max: 100 }),
        async (bars, limit) => {
          let close = 1000;
          const rows = bars.map(({ gap, move }) => {
            const open = close + gap;
            close = open + move;
            return [open, Math.max(open, close) + 5, Math.min(open, close) - 5, close];
          });
          const entries = bars.flatMap((b, i) => (b.entry ? [i] : []));
          const { result, trips } = await run(rows, entries, limit / 100_000);
          const since = trips[0]?.since ?? Number.POSITIVE_INFINITY;
          const fills = [...result.fills];
          result.dispose?.();
          const late = fills.filter((f) => f.timestamp > since);
          expect(
            late.filter((f) => f.side !== 'SELL').map((f) => `${f.clientOrderId} @ ${f.timestamp}`),
          ).toEqual([]);
          let position = 0;
          for (const f of fills) {
            position += (f.side === 'BUY' ? 1 : -1) * f.quantity.toNumber();
            expect(position).toBeGreaterThanOrEqual(0);
          }
        },
      ),
      { numRuns: 30, seed: 45 },
    );
  }, 120_000);
});
