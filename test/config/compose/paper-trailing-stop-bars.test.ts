import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { paperAndBacktestResults } from '../../kit/paper-and-backtest-runs.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2025, 2, 3);
const tempDir = tempDirsRemovedAfterEach('keel-paper-trailing-bars-');
// User Data later than market data: a fill stamped at a bar's close reaches the strategy after the bar.
const LATENCY = '{ fixedMs: 10, jitterMs: 0, userData: { fixedMs: 5, jitterMs: 0 } }';

/**
 * On its first bar, a limit BUY at 99; on its fill, a SELL trailing stop 2 under the latest price.
 * With `timer`, instead a SELL trailing stop placed from a timer half way through the next bar.
 */
const STRATEGY = `import { z } from 'zod';
import { defineStrategy } from 'keel';
const params = z.object({ sym: z.string(), timer: z.boolean() }).strict();
export default defineStrategy({
  name: 'trail-on-bars',
  description: 'places a trailing stop on a fill, or from a timer inside a bar',
  params,
  state: () => ({ bars: 0, placed: false }),
  onStart: (ctx) => ctx.watchBars(ctx.params.sym, '1m'),
  onBar: (ctx) => {
    ctx.state.bars++;
    if (ctx.state.bars !== 1) return undefined;
    if (ctx.params.timer) {
      ctx.setTimer(30_000, 'place');
      return undefined;
    }
    return ctx.order.limit({ sym: ctx.params.sym, side: 'BUY', qty: 1, price: 99, ref: 'entry' });
  },
  onOrder: (ctx, order) => {
    if (order.orderState !== 'FILLED' || ctx.state.placed || order.clientOrderId !== 'entry') return undefined;
    ctx.state.placed = true;
    return ctx.order.trailingStop({ sym: ctx.params.sym, side: 'SELL', qty: 1, offset: { price: 2 }, ref: 'stop' });
  },
  onTimer: (ctx) =>
    ctx.order.trailingStop({ sym: ctx.params.sym, side: 'SELL', qty: 1, offset: { price: 2 }, reduceOnly: false, ref: 'stop' }),
});
`;

type Result = {
  fills: { clientOrderId: string; side: string; price: string; timestamp: number }[];
  trailingStops?: { ref: string; status: string; steps: { ts: number; status: string }[] }[];
};

/** Runs the strategy as a lockstep paper session and as a backtest, both with {@link LATENCY}, in this process. */
async function paperAndBacktest(bars: readonly (readonly number[])[], timer: boolean) {
  const dir = tempDir();
  writeFileSync(join(dir, 'trail.ts'), STRATEGY);
  const recording = await barsRecordingIn(dir, bars, T0, BTC);
  const strategy = `instruments: [${BTC}]\nstrategies:\n  - { id: t, use: ./trail.ts, params: { sym: ${BTC}, timer: ${timer} } }\n`;
  return paperAndBacktestResults<Result>(dir, strategy, recording, LATENCY);
}

const fillLines = (r: Result) =>
  r.fills.map((f) => `${f.clientOrderId} ${f.side} @ ${f.price} T0+${f.timestamp - T0}ms`);
const stopLines = (r: Result) =>
  (r.trailingStops ?? []).flatMap((s) =>
    s.steps.map((step) => `${s.ref} ${step.status} T0+${step.ts - T0}ms`),
  );

describe('a lockstep paper run on bars with an emulated trailing stop', () => {
  it('meets the bar after the fill it was placed on, as the backtest with the same latency does', async () => {
    // The limit fills inside bar 1 (reported at its close, seen 5 ms later); the stop, 2 under
    // bar 1's close (93), meets bar 2 from its open and triggers on its low.
    const { paper, backtest } = await paperAndBacktest(
      [
        [100, 100, 100, 100],
        [100, 100, 90, 95],
        [95, 96, 90, 91],
        [91, 92, 91, 92],
        [92, 92, 92, 92],
      ],
      false,
    );
    expect(fillLines(backtest)).toEqual(['entry BUY @ 99 T0+120000ms', 'stop SELL @ 91 T0+180010ms']);
    expect(fillLines(paper)).toEqual(fillLines(backtest));
    // The paper session's clock at the fill is its stamp, the backtest's the stamp plus the User
    // Data delay: the stop is made 5 ms apart. It triggers at the same moment.
    expect(stopLines(backtest)).toEqual([
      'stop PENDING T0+120005ms',
      'stop ACTIVE T0+120005ms',
      'stop TRIGGERED T0+180000ms',
    ]);
    expect(stopLines(paper)).toEqual([
      'stop PENDING T0+120000ms',
      'stop ACTIVE T0+120000ms',
      'stop TRIGGERED T0+180000ms',
    ]);
  }, 120_000);

  it('sits out the bar a timer placed it inside, as the backtest does', async () => {
    // Placed at T0+90 s, inside bar 1, 2 under bar 0's close: 98. Bar 1's low 90 came before it.
    const { paper, backtest } = await paperAndBacktest(
      [
        [100, 100, 100, 100],
        [100, 100, 90, 95],
        [99.5, 100, 99.5, 100],
        [100, 100, 100, 100],
      ],
      true,
    );
    // Still trailing at the end: the run's end cancels it (runEnded), after the last bar.
    expect(stopLines(backtest)).toEqual([
      'stop PENDING T0+90000ms',
      'stop ACTIVE T0+90000ms',
      'stop CANCELLED T0+240000ms',
    ]);
    expect(fillLines(backtest)).toEqual([]);
    expect(fillLines(paper)).toEqual(fillLines(backtest));
    expect(stopLines(paper)).toEqual(stopLines(backtest));
  }, 120_000);
});
