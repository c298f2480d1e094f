import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { decodeQuotesAndTrades } from '../../kit/quote-trade-decoder.ts';
import { quotingBacktestOptions } from '../../kit/quoting-backtest-options.ts';
import { quoteRecordAt, tempDir, writeRecording } from '../../kit/recording-files.ts';

// a perp backtest on BBO quotes alone (no trades, no bars, no MARK_PRICE). The sim marks
// such a perp at the quote mid (market-state.ts markPriceOf -> lastPriceOf: last trade, else the
// mid), but the new assumption line says "marked at the last price (on bars along each bar's path)".
describe('perp assumption wording on a quotes-only recording', () => {
  it('names the quote mid as the mark and says nothing of bars', async () => {
    const { dir, remove } = tempDir();
    try {
      const path = join(dir, 'quotes.jsonl');
      const records = Array.from({ length: 200 }, (_, i) =>
        quoteRecordAt(i * 1000, `${95000 + (i % 7)}.1`, `${95000 + (i % 7)}.3`),
      );
      await writeRecording(path, records);
      const result = await runBacktest(quotingBacktestOptions(path, decodeQuotesAndTrades));
      try {
        const line = result.meta.assumptions?.find((a) => a.includes('mark and funding')) ?? '';
        expect(line).not.toContain("on bars along each bar's path");
        expect(line).toContain(
          'so it is marked at the quote mid (the middle of the best bid and ask) for margin',
        );
      } finally {
        result.dispose?.();
      }
    } finally {
      remove();
    }
  }, 60_000);
});
