import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { withListFeedPaperSession } from '../../kit/list-feed-paper-session.ts';
import { quoteRecordAt } from '../../kit/recording-files.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
const newDir = tempDirsRemovedAfterEach('keel-close-fill-in-flight-');

const QUOTES = [0, 1_000, 2_000].map((t) => quoteRecordAt(t, '95000.1', '95000.3'));

/**
 * Buys 0.01 and closes the sym in one hook, on its first quote: the paper venue fills the buy
 * before the close arrives, so the close sells what the buy opened while the strategy's view is
 * still flat. It writes what it sent and heard into `heard`, and stops the session (as a SIGTERM
 * does) on its third quote.
 */
function buyAndClose(heard: string[]) {
  return defineStrategy<Record<string, never>, { quotes: number }>({
    name: 'buy-and-close',
    params: z.object({}),
    state: () => ({ quotes: 0 }),
    onQuote: (ctx) => {
      ctx.state.quotes++;
      if (ctx.state.quotes === 3) process.emit('SIGTERM');
      if (ctx.state.quotes !== 1) return undefined;
      // closePositions: the risk gate denies a closePosition of a position the kernel holds flat.
      const close = ctx.order.closePositions([SYM]);
      heard.push(`close ${close.ref}`);
      return [ctx.order.market({ sym: SYM, side: 'BUY', qty: '0.01' }), close];
    },
    onFill: (_ctx, fill) => {
      heard.push(`fill ${fill.side} closeRef ${fill.closeRef}`);
    },
  });
}

describe('a paper session whose strategy closes while its opening fill is on its way', () => {
  it('gives the strategy its close’s order and fill, with the close’s ref', async () => {
    const heard: string[] = [];
    await withListFeedPaperSession(
      {
        dir: newDir(),
        quotes: QUOTES,
        slot: { id: 's', strategy: buyAndClose(heard) },
        name: 'close-fill-in-flight-test',
      },
      (outcome) => {
        const fills = [...outcome.result.fills];
        expect(fills.map((f) => `${f.side} ${f.quantity.toFixed()} ${f.strategyId}`)).toEqual([
          'BUY 0.01 s',
          'SELL 0.01 s',
        ]);
        const close = heard[0]?.slice('close '.length);
        expect(heard).toEqual([
          `close ${close}`,
          'fill BUY closeRef undefined',
          `fill SELL closeRef ${close}`,
        ]);
        outcome.result.dispose?.();
      },
    );
  }, 30_000);
});
