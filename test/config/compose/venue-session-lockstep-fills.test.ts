import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import {
  aLockstepConfig,
  lockstepSyntheticVenues,
  runLockstepSession,
} from '../../kit/lockstep-synthetic-sessions.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
const newDir = tempDirsRemovedAfterEach('keel-lockstep-fills-');
const startVenue = lockstepSyntheticVenues();

describe('a lockstep paper session whose private pushes travel slower than the market data', () => {
  it('hands each fill to the strategy before any quote of the event that caused it or later', async () => {
    const { config, instruments } = aLockstepConfig(newDir(), SYM, 'probe');
    const venue = await startVenue(instruments, SYM);
    // The fills an event causes reach the session 40 ms after the event itself.
    venue.faults.pushDelayMs = 40;
    let latestQuoteTs = 0;
    const late: string[] = [];
    let fills = 0;
    const probe = defineStrategy({
      name: 'probe',
      params: z.object({}),
      onQuote: (ctx, quote) => {
        latestQuoteTs = Math.max(latestQuoteTs, quote.ts);
        // One resting buy at the bid at a time: the touch model fills it when the market comes down.
        if (ctx.openOrders(SYM).length > 0 || fills >= 5) return;
        return ctx.order.limit({ sym: SYM, side: 'BUY', qty: 0.01, price: quote.bid, round: true });
      },
      onFill: (_ctx, fill) => {
        fills++;
        if (latestQuoteTs >= fill.timestamp)
          late.push(`fill at ${fill.timestamp} after a quote at ${latestQuoteTs}`);
      },
    });
    const outcome = await runLockstepSession(venue, {
      config,
      instruments,
      slots: [{ id: 'probe', strategy: probe }],
      name: 'lockstep-fills-test',
      durationMs: 4_000,
    });
    expect(outcome.exitCode).toBe(0);
    expect(fills).toBeGreaterThan(1);
    expect(late).toEqual([]);
  }, 30_000);
});
