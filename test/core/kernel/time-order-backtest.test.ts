import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const aTempDir = tempDirsRemovedAfterAll('keel-time-order-');

/** Quiet 1m bars, but the fourth opens at 105: the bar after the send time. */
const OPENS_105_AT_FOURTH = [
  [100, 101, 99, 100],
  [100, 101, 99, 100],
  [100, 101, 99, 100],
  [100, 102, 98, 101],
  [105, 106, 104, 105],
  [100, 101, 99, 100],
];

/** Places a TIME market BUY on its first bar, to be sent at `sendAt`; logs its fills. */
function timedBuyer(sendAt: number | string, fills: string[]) {
  return defineStrategy({
    name: 'timed-buyer',
    params: z.object({}),
    state: () => ({ placed: false }),
    onStart: (ctx) => ctx.watchBars(BTC, '1m'),
    onBar: (ctx) => {
      if (ctx.state.placed) return undefined;
      ctx.state.placed = true;
      return ctx.order.conditional({ sym: BTC, side: 'BUY', qty: 1, code: 'TIME', sendAt });
    },
    onFill: (_ctx, fill) => {
      fills.push(`${new Date(fill.timestamp).toISOString()} ${fill.price.toFixed()}`);
    },
  });
}

describe('backtest: a TIME order is sent at its send time', () => {
  // A winter open, and bars straddling both daylight-saving changes of New York (01:58 EST to
  // 03:01:30 EDT; 01:58 EDT to 01:01:30 EST, the repeated hour's second occurrence): the zone the
  // kernel writes the send time in is the one the venue reads it in.
  for (const t0 of [
    Date.UTC(2025, 0, 6, 14, 30),
    Date.UTC(2025, 2, 9, 6, 58),
    Date.UTC(2025, 10, 2, 5, 58),
  ]) {
    it(`sends it at the epoch sendAt, no earlier, and fills it at the next bar's open (bars from ${new Date(t0).toISOString()})`, async () => {
      const fills: string[] = [];
      const sendAt = t0 + 210_000; // half-way through the fourth bar
      const recording = await barsRecordingIn(aTempDir(), OPENS_105_AT_FOURTH, t0, BTC);
      await runBacktest(
        barRunOptions(recording, [anInstrument(BTC)], [{ id: 't', strategy: timedBuyer(sendAt, fills) }]),
      );
      expect(fills).toEqual([`${new Date(t0 + 240_000).toISOString()} 105`]);
    });
  }

  it('sends it at the same moment when given the send time as the spec’s New York text', async () => {
    const fills: string[] = [];
    const t0 = Date.UTC(2025, 0, 6, 14, 30);
    const recording = await barsRecordingIn(aTempDir(), OPENS_105_AT_FOURTH, t0, BTC);
    await runBacktest(
      barRunOptions(
        recording,
        [anInstrument(BTC)],
        [{ id: 't', strategy: timedBuyer('2025-01-06 09:33:30', fills) }],
      ),
    );
    expect(fills).toEqual(['2025-01-06T14:34:00.000Z 105']);
  });

  it('says so when a send time written as UTC is read as New York time and falls after the data', async () => {
    const fills: string[] = [];
    const t0 = Date.UTC(2025, 0, 6, 14, 30);
    const recording = await barsRecordingIn(aTempDir(), OPENS_105_AT_FOURTH, t0, BTC);
    const result = await runBacktest(
      barRunOptions(
        recording,
        [anInstrument(BTC)],
        [{ id: 't', strategy: timedBuyer('2025-01-06 14:33:30', fills) }],
      ),
    );
    const warnings = result.meta.warnings ?? [];
    result.dispose?.();
    expect(fills).toEqual([]);
    expect(warnings).toContainEqual(
      expect.stringMatching(
        /^TIME order \S+ was never sent: its timeToSend 2025-01-06 14:33:30 \(New York time\) is 2025-01-06 19:33:30 UTC, after the last event at 2025-01-06 14:36:00 UTC$/,
      ),
    );
  });
});
