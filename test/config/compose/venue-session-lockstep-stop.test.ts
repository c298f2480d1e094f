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
const newDir = tempDirsRemovedAfterEach('keel-lockstep-stop-');

/** Quotes: the strategy rests a BUY at 94 990 on the first, the third (ask 94 985) fills it. */
const QUOTES = QUOTES_A_SECOND_APART;

/**
 * Rests a BUY limit on the first quote and calls `stop` while handling the second.
 * @param stop - what stops the session (nothing in the backtest, nor when the venue stops it)
 * @returns the strategy
 */
const restThenStop = (stop: () => void) =>
  defineStrategy<Record<string, never>, { quotes: number }>({
    name: 'rest-then-stop',
    params: z.object({}),
    state: () => ({ quotes: 0 }),
    onQuote: (ctx) => {
      ctx.state.quotes++;
      if (ctx.state.quotes === 2) stop();
      if (ctx.state.quotes !== 1) return undefined;
      return ctx.order.limit({ sym: SYM, side: 'BUY', qty: '0.01', price: '94990' });
    },
  });

/** Where the session is stopped (as by a SIGTERM). */
type StopAt =
  /** While the strategy handles the second quote, before the session acknowledges it. */
  | 'second quote handled'
  /** Once the venue released the third quote, before the session received it. */
  | 'third quote released';

async function sessionAndItsBacktest(lockstepSpeed: number, stopAt: StopAt) {
  const dir = newDir();
  const recording = join(dir, 'session.jsonl.gz');
  const stop = () => process.emit('SIGTERM');
  return withListFeedPaperSession(
    {
      dir,
      quotes: QUOTES,
      slot: { id: 'rest', strategy: restThenStop(stopAt === 'second quote handled' ? stop : () => {}) },
      name: 'lockstep-stop-test',
      extraYaml: `recording: { path: ${JSON.stringify(recording)} }\nshutdown: { cancelAllOrders: true }\n`,
      lockstepSpeed,
      // Settled in a microtask of the release, before the venue's socket sends the frame.
      beforeRun: (venue) => {
        if (stopAt === 'third quote released') void venue.feed.until(3).then(stop);
      },
    },
    async (outcome, venue) => {
      const released = venue.feed.released;
      const recorded = await recordedBboTimes(recording);
      const backtest = await backtestOfSessionRecording(dir, SYM, recording, {
        id: 'rest',
        strategy: restThenStop(() => {}),
      });
      return { outcome, backtest, released, recorded };
    },
  );
}

describe('a lockstep paper session stopped while it handles an event', () => {
  it.each([
    // The ack of the second quote went out before the stop: the third, which it released and
    // which fills the order, is handled, recorded and valued like the rest.
    ['third quote released', Number.POSITIVE_INFINITY, 1],
    ['third quote released', 5, 1],
    // The ack of the second quote, sent as soon as it was handled, went out before the stop
    // took effect: likewise.
    ['second quote handled', Number.POSITIVE_INFINITY, 1],
    // The ack was still waiting for its pace at the stop: it is not sent, nothing more released.
    ['second quote handled', 5, 0],
  ] as const)(
    'stopped once the %s (speed %s): records every event the venue released, and its fills and equity are its backtest’s',
    async (stopAt, speed, filled) => {
      const { outcome, backtest, released, recorded } = await sessionAndItsBacktest(speed, stopAt);
      // Stopped as by a SIGTERM: its exit code.
      expect(outcome.exitCode).toBe(143);
      // The recording holds every market event the venue released, none it held back.
      expect(recorded).toHaveLength(released);
      const fills = (fs: Iterable<{ side: string; price: Dec; quantity: Dec }>) =>
        [...fs].map((f) => `${f.side} ${f.quantity.toFixed()} @ ${f.price.toFixed()}`);
      expect(fills(outcome.result.fills)).toEqual(fills(backtest.fills));
      expect(fills(outcome.result.fills)).toHaveLength(filled);
      expect(outcome.result.metrics.equityFinal).toEqual(backtest.metrics.equityFinal);
      // The fill is in it: its fee and the long valued at the third quote.
      expect(outcome.endEquity.toString()).toBe(filled === 1 ? '99999.73502' : '100000');
      backtest.dispose?.();
      outcome.result.dispose?.();
    },
    30_000,
  );
});
