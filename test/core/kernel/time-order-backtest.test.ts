import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { barRunOptions } from '../../kit/bar-run-options.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

/** Conditions are PLACE_ORDER's, whose orders are US equities' (the gate denies one on crypto). */
const AAPL = 'US_EQUITY_AAPL';
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

/**
 * Places a TIME market BUY of AAPL on its first bar, to be sent at `sendAt`; logs the updates the
 * venue gives it once it sent it (their time, state and actionMsg: "TIME order sent at" the
 * timeToSend the venue read) and its fills.
 */
function timedBuyer(sendAt: number | string, heard: string[]) {
  return defineStrategy({
    name: 'timed-buyer',
    params: z.object({}),
    state: () => ({ placed: false }),
    onStart: (ctx) => ctx.watchBars(AAPL, '1m'),
    onBar: (ctx) => {
      if (ctx.state.placed) return undefined;
      ctx.state.placed = true;
      return ctx.order.conditional({ sym: AAPL, side: 'BUY', qty: 1, code: 'TIME', sendAt });
    },
    onOrder: (_ctx, order) => {
      if (order.actionMsg === undefined) return;
      heard.push(`${order.orderState} ${new Date(order.updateAt).toISOString()} ${order.actionMsg}`);
    },
    onFill: (_ctx, fill) => {
      heard.push(`fill ${new Date(fill.timestamp).toISOString()} ${fill.price.toFixed()}`);
    },
  });
}

/** On the bar fill model a send time inside a bar is reached when that bar is matched, at its close. */
const SENT_WITH_FOURTH_BAR = 240_000;

describe('backtest: a TIME order is sent at its send time', () => {
  it("sends it at the epoch sendAt, no earlier, and fills it at the next bar's open (bars from 2025-01-06T14:30:00.000Z, 09:30 New York on a Monday)", async () => {
    const heard: string[] = [];
    const t0 = Date.UTC(2025, 0, 6, 14, 30);
    const sendAt = t0 + 210_000; // half-way through the fourth bar
    const recording = await barsRecordingIn(aTempDir(), OPENS_105_AT_FOURTH, t0, AAPL);
    await runBacktest(
      barRunOptions(recording, [anInstrument(AAPL)], [{ id: 't', strategy: timedBuyer(sendAt, heard) }]),
    );
    const at = new Date(t0 + SENT_WITH_FOURTH_BAR).toISOString();
    expect(heard).toEqual([
      `NEW ${at} TIME order sent at 2025-01-06 09:33:30`,
      `fill ${at} 105`,
      `FILLED ${at} TIME order sent at 2025-01-06 09:33:30`,
    ]);
  });

  // Bars straddling both daylight-saving changes of New York (01:58 EST to 03:01:30 EDT; 01:58 EDT
  // to 01:01:30 EST, the repeated hour's second occurrence): the zone the kernel writes the send
  // time in is the one the venue reads it in. A Sunday night, when AAPL does not trade: the order
  // is sent with the bar holding its send time and waits there for a session, unfilled. Read an
  // hour off, it would be sent with the first bar or never (the data ends before).
  for (const [t0, timeToSend] of [
    [Date.UTC(2025, 2, 9, 6, 58), '2025-03-09 03:01:30'],
    [Date.UTC(2025, 10, 2, 5, 58), '2025-11-02 01:01:30'],
  ] as const) {
    it(`sends it at the epoch sendAt, no earlier, across a change of New York's offset (bars from ${new Date(t0).toISOString()})`, async () => {
      const heard: string[] = [];
      const sendAt = t0 + 210_000; // half-way through the fourth bar
      const recording = await barsRecordingIn(aTempDir(), OPENS_105_AT_FOURTH, t0, AAPL);
      const result = await runBacktest(
        barRunOptions(recording, [anInstrument(AAPL)], [{ id: 't', strategy: timedBuyer(sendAt, heard) }]),
      );
      const states = [...result.orders].map((o) => `${o.clientOrderId} ${o.orderState}`);
      result.dispose?.();
      expect(heard).toEqual([
        `NEW ${new Date(t0 + SENT_WITH_FOURTH_BAR).toISOString()} TIME order sent at ${timeToSend}`,
      ]);
      expect(states).toEqual(['t-1 NEW']);
    });
  }

  it('sends it at the same moment when given the send time as the spec’s New York text', async () => {
    const heard: string[] = [];
    const t0 = Date.UTC(2025, 0, 6, 14, 30);
    const recording = await barsRecordingIn(aTempDir(), OPENS_105_AT_FOURTH, t0, AAPL);
    await runBacktest(
      barRunOptions(
        recording,
        [anInstrument(AAPL)],
        [{ id: 't', strategy: timedBuyer('2025-01-06 09:33:30', heard) }],
      ),
    );
    expect(heard).toEqual([
      'NEW 2025-01-06T14:34:00.000Z TIME order sent at 2025-01-06 09:33:30',
      'fill 2025-01-06T14:34:00.000Z 105',
      'FILLED 2025-01-06T14:34:00.000Z TIME order sent at 2025-01-06 09:33:30',
    ]);
  });

  it('says so when a send time written as UTC is read as New York time and falls after the data', async () => {
    const heard: string[] = [];
    const t0 = Date.UTC(2025, 0, 6, 14, 30);
    const recording = await barsRecordingIn(aTempDir(), OPENS_105_AT_FOURTH, t0, AAPL);
    const result = await runBacktest(
      barRunOptions(
        recording,
        [anInstrument(AAPL)],
        [{ id: 't', strategy: timedBuyer('2025-01-06 14:33:30', heard) }],
      ),
    );
    const warnings = result.meta.warnings ?? [];
    result.dispose?.();
    expect(heard).toEqual([]);
    expect(warnings).toContainEqual(
      expect.stringMatching(
        /^TIME order \S+ was never sent: its timeToSend 2025-01-06 14:33:30 \(New York time\) is 2025-01-06 19:33:30 UTC, after the last event at 2025-01-06 14:36:00 UTC$/,
      ),
    );
  });
});
