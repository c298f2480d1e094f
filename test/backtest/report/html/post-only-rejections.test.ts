import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  POST_ONLY_TAKE_REASON,
  warningsAndNotes,
} from '../../../../backtest/report/html/post-only-rejections.ts';
import { renderHtmlReport } from '../../../../backtest/report/index.ts';
import type { OrderRecord } from '../../../../backtest/report/result/owned-records.ts';
import { runBacktest } from '../../../../backtest/runner/index.ts';
import { rejectionWarning } from '../../../../backtest/runner/rejection-warning.ts';
import { defineStrategy } from '../../../../core/kernel/index.ts';
import { D } from '../../../../core/model/index.ts';
import { RiskGate } from '../../../../core/risk/index.ts';
import { decodeMarketRecord } from '../../../kit/bar-recordings.ts';
import { anInstrument } from '../../../kit/instrument-builders.ts';
import { quoteRecordAt, writeRecording } from '../../../kit/recording-files.ts';
import { tempDirsRemovedAfterAll } from '../../../kit/temp-dirs.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
const aTempDir = tempDirsRemovedAfterAll('keel-post-only-');

/**
 * On the first quote: `takers` post-only buys priced at the ask (they would take), one post-only
 * buy far below the bid (it rests), and, when `oversized`, a limit buy at the bid far too big for
 * the cash.
 */
const quoter = defineStrategy({
  name: 'quoter',
  params: z.object({ takers: z.number(), oversized: z.boolean() }),
  state: () => ({ sent: false }),
  onQuote: (ctx, quote) => {
    if (ctx.state.sent) return;
    ctx.state.sent = true;
    for (let i = 0; i < ctx.params.takers; i++)
      ctx.submit(ctx.order.postOnly({ sym: SYM, side: 'BUY', qty: '0.001', price: quote.ask }));
    ctx.submit(ctx.order.postOnly({ sym: SYM, side: 'BUY', qty: '0.001', price: '36000.0' }));
    if (ctx.params.oversized)
      ctx.submit(ctx.order.limit({ sym: SYM, side: 'BUY', qty: '1000', price: '40000.0' }));
  },
});

async function run(params: { takers: number; oversized: boolean }) {
  const path = join(aTempDir(), 'quotes.jsonl');
  await writeRecording(
    path,
    Array.from({ length: 20 }, (_, i) => quoteRecordAt(i * 1000, '40000.0', '40000.1')),
  );
  return runBacktest({
    recordings: [path],
    decode: decodeMarketRecord,
    instruments: [anInstrument(SYM)],
    strategies: [{ id: 'q', strategy: quoter, params }],
    gate: new RiskGate(),
    startingCash: D(1_000),
    closeAtEnd: false,
  });
}

describe("a run's post-only orders rejected because they would take", () => {
  it('are counted and listed as a note, not under "the run\'s setup looks wrong"', async () => {
    const result = await run({ takers: 3, oversized: false });
    try {
      const warnings = result.meta.warnings ?? [];
      expect(warnings.filter((w) => w.startsWith('the venue rejected'))).toEqual([
        `the venue rejected 3 of the 4 orders placed; the first: ${SYM} BUY q-1: 400001 bad parameters: ${POST_ONLY_TAKE_REASON}`,
      ]);
      const html = renderHtmlReport(result);
      expect(html).not.toContain('id="run-warnings"');
      const notes = html.slice(
        html.indexOf('id="run-notes"'),
        html.indexOf('</div>', html.indexOf('id="run-notes"')),
      );
      expect(notes).toContain('NOTES: normal venue behaviour, not a setup problem.');
      expect(notes).toContain('the venue rejected 3 of the 4 orders placed');
      expect(notes).toContain(
        '3 post-only (GTX) orders were rejected because they would have taken liquidity',
      );
    } finally {
      result.dispose?.();
    }
  });

  it('among other rejections, leave the warning as it is and are counted apart in a note', async () => {
    const result = await run({ takers: 1, oversized: true });
    try {
      const html = renderHtmlReport(result);
      const banner = html.slice(
        html.indexOf('id="run-warnings"'),
        html.indexOf('</div>', html.indexOf('id="run-warnings"')),
      );
      expect(banner).toContain("WARNINGS: the run's setup looks wrong.");
      expect(banner).toContain('the venue rejected 2 of the 3 orders placed');
      expect(html).toContain(
        '1 post-only (GTX) order was rejected (of the 2 orders rejected) because it would have taken liquidity',
      );
    } finally {
      result.dispose?.();
    }
  });
});

describe('every order placed rejected as post-only takes', () => {
  it('stays a warning: a run that could not rest or fill a single order is a setup problem', () => {
    // A market maker whose every quote is priced through the book (e.g. its bid at the ask).
    const orders = Array.from(
      { length: 500 },
      (_, i) =>
        ({
          clientOrderId: `mm-${i}`,
          orderState: 'REJECTED',
          timeInForce: 'GTX',
          reason: `400011 ${POST_ONLY_TAKE_REASON}`,
        }) as unknown as OrderRecord,
    );
    const warning = rejectionWarning(500, 500, `BTC BUY mm-0: 400011 ${POST_ONLY_TAKE_REASON}`) ?? '';
    expect(warning).toMatch(/every order placed \(500 of 500\), so nothing could fill/);
    const split = warningsAndNotes([warning], orders);
    expect(split.warnings).toEqual([warning]);
    expect(split.notes).toEqual([]);
  });
});
