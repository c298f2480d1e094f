import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import type { Dec } from '../../../core/model/index.ts';
import { withListFeedPaperSession } from '../../kit/list-feed-paper-session.ts';
import {
  backtestOfSessionRecording,
  QUOTES_A_SECOND_APART,
  recordedBboTimes,
} from '../../kit/session-recording-backtest.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
const newDir = tempDirsRemovedAfterEach('keel-lockstep-stop-tick-');

/** Quotes a second apart: the timer set on the first is due half-way between the second and the third. */
const QUOTES = QUOTES_A_SECOND_APART;

/** When the strategy stops the session. */
type StopAt =
  /** In the timer, as it buys (twap's slice when the session is stopped on the wall clock then). */
  | 'timer'
  /** On the second quote: its ack, sent at once, lets the venue tick to the timer, which the stopped session leaves unhandled. */
  | 'second quote';

/**
 * Sets a 1.5 s timer on the first quote; the timer buys at market.
 * @param stopAt - when it calls `stop`
 * @param stop - what stops the session (nothing in the backtest)
 * @returns the strategy
 */
const buyOnTimer = (stopAt: StopAt, stop: () => void) =>
  defineStrategy<Record<string, never>, { quotes: number }>({
    name: 'buy-on-timer',
    params: z.object({}),
    state: () => ({ quotes: 0 }),
    onQuote: (ctx) => {
      ctx.state.quotes++;
      if (ctx.state.quotes === 1) ctx.setTimer(1_500, 'buy');
      if (ctx.state.quotes === 2 && stopAt === 'second quote') stop();
      return undefined;
    },
    onTimer: (ctx) => {
      if (stopAt === 'timer') stop();
      return ctx.order.market({ sym: SYM, side: 'BUY', qty: '0.01' });
    },
  });

const fillsOf = (fs: Iterable<{ side: string; price: Dec; quantity: Dec; timestamp: number }>) =>
  [...fs].map((f) => `${f.side} ${f.quantity.toFixed()} @ ${f.price.toFixed()} t=${f.timestamp}`);

/**
 * Runs the session stopped at `stopAt` (as by a SIGTERM), recorded, then the backtest of its recording.
 * @returns the session's outcome, its backtest and the BBO times recorded
 */
async function sessionAndItsBacktest(stopAt: StopAt) {
  const dir = newDir();
  const recording = join(dir, 'session.jsonl.gz');
  return withListFeedPaperSession(
    {
      dir,
      quotes: QUOTES,
      slot: { id: 'tw', strategy: buyOnTimer(stopAt, () => process.emit('SIGTERM')) },
      name: 'lockstep-stop-tick-test',
      eventTime: true,
      extraYaml: `recording: { path: ${JSON.stringify(recording)} }\n`,
    },
    async (outcome) => {
      const recorded = await recordedBboTimes(recording);
      const backtest = await backtestOfSessionRecording(dir, SYM, recording, {
        id: 'tw',
        strategy: buyOnTimer(stopAt, () => {}),
      });
      return { outcome, backtest, recorded };
    },
  );
}

describe('a lockstep paper session stopped around a timer the venue ticks to', () => {
  it('stopped as the timer sends an order: records the event the tick came before, so its backtest fires the timer too and books the same fill', async () => {
    const { outcome, backtest, recorded } = await sessionAndItsBacktest('timer');
    expect(outcome.exitCode).toBe(143);
    // The timer fired at its time, between the second and third quotes, and its order filled.
    expect(fillsOf(outcome.result.fills)).toEqual([`BUY 0.01 @ 95000.3 t=${QUOTES[1]!.recvTs + 500}`]);
    // The third quote, which the tick came before, is recorded: the backtest reaches the timer.
    expect(recorded).toEqual(QUOTES.slice(0, 3).map((q) => q.recvTs));
    expect(fillsOf(backtest.fills)).toEqual(fillsOf(outcome.result.fills));
    expect(outcome.result.metrics.equityFinal).toEqual(backtest.metrics.equityFinal);
    backtest.dispose?.();
    outcome.result.dispose?.();
  }, 30_000);

  it('stopped before the tick: leaves it unhandled and ends at its last event, as its backtest does', async () => {
    const { outcome, backtest, recorded } = await sessionAndItsBacktest('second quote');
    expect(outcome.exitCode).toBe(143);
    expect(fillsOf(outcome.result.fills)).toEqual([]);
    expect(recorded).toEqual(QUOTES.slice(0, 2).map((q) => q.recvTs));
    expect(fillsOf(backtest.fills)).toEqual([]);
    // Not the tick's time, which the venue moved to but the session never reached.
    expect(outcome.result.metrics.end).toBe(QUOTES[1]!.recvTs);
    expect(outcome.result.metrics.end).toBe(backtest.metrics.end);
    const curve = (points: Iterable<{ ts: number; equity: Dec }>) =>
      [...points].map((p) => `${p.ts} ${p.equity.toFixed()}`);
    expect(curve(outcome.result.equityCurve)).toEqual(curve(backtest.equityCurve));
    backtest.dispose?.();
    outcome.result.dispose?.();
  }, 30_000);
});
