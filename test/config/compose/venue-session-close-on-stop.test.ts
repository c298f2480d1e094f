import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D, ZERO } from '../../../core/model/index.ts';
import { withListFeedPaperSession } from '../../kit/list-feed-paper-session.ts';
import { quoteRecordAt } from '../../kit/recording-files.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
const newDir = tempDirsRemovedAfterEach('keel-close-on-stop-');

/** Flat quotes: the strategy buys on the first; the session is stopped (as by a SIGTERM) on the third. */
const QUOTES = [0, 1_000, 2_000, 3_000].map((t) => quoteRecordAt(t, '95000.1', '95000.3'));

/** Buys 0.01 on its first quote, stops the session on its third, and closes the position from onStop. */
const buyThenCloseOnStop = defineStrategy<Record<string, never>, { quotes: number }>({
  name: 'buy-then-close-on-stop',
  params: z.object({}),
  state: () => ({ quotes: 0 }),
  onQuote: (ctx) => {
    ctx.state.quotes++;
    if (ctx.state.quotes === 3) process.emit('SIGTERM');
    return ctx.state.quotes === 1 ? ctx.order.market({ sym: SYM, side: 'BUY', qty: '0.01' }) : undefined;
  },
  onStop: (ctx) => ctx.order.closePosition(SYM),
});

describe('a paper session whose strategy closes its position from onStop', () => {
  it('books the close: its fill is the strategy’s, nothing is left open, and the final equity holds its PnL and fee', async () => {
    await withListFeedPaperSession(
      {
        dir: newDir(),
        quotes: QUOTES,
        slot: { id: 's', strategy: buyThenCloseOnStop },
        name: 'close-on-stop-test',
      },
      (outcome) => {
        const fills = [...outcome.result.fills];
        expect(fills.map((f) => `${f.side} ${f.quantity.toFixed()} ${f.strategyId}`)).toEqual([
          'BUY 0.01 s',
          'SELL 0.01 s',
        ]);
        expect((outcome.notes ?? []).join('\n')).not.toContain('left open');
        // Flat at the end: equity is the start plus the fills' realized PnL less their fees.
        const booked = fills.reduce((sum, f) => sum.plus(f.rpnl).minus(f.fee), ZERO);
        expect(outcome.endEquity.toFixed()).toBe(D(100_000).plus(booked).toFixed());
        outcome.result.dispose?.();
      },
    );
  }, 30_000);
});
