import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { flatBarsRecordingIn } from '../../kit/bar-recordings.ts';
import { paperAndBacktestResults } from '../../kit/paper-and-backtest-runs.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const tempDir = tempDirsRemovedAfterEach('keel-paper-perp-assumptions-');

const HOLD = `import { z } from 'zod';
import { defineStrategy } from '${process.cwd()}/core/kernel/index.ts';
export default defineStrategy({
  name: 'hold', description: 'buys 1 on the first bar and holds',
  params: z.object({ sym: z.string() }),
  state: () => ({ done: false }),
  onStart: (ctx) => ctx.watchBars(ctx.params.sym, '1m'),
  onBar: (ctx, bar) => { if (ctx.state.done) return; ctx.state.done = true; return ctx.order.market({ sym: bar.sym, side: 'BUY', qty: 1 }); },
});
`;

type Result = { meta: { assumptions: string[]; warnings: string[] } };

/** The lines naming the perpetual's mark, funding and margin, or warning of its funding. */
const perpLines = (lines: readonly string[]) => lines.filter((line) => line.startsWith(`${BTC} `));

describe('a paper run names the perpetual assumptions a backtest of the same data names', () => {
  it('states the same mark, funding and margin lines and the same funding warning, of its feed', async () => {
    const dir = tempDir();
    // 1m bars from 15:30 to 16:29 UTC, no mark prices: a long bought on the first bar is held at 16:00.
    const bars = await flatBarsRecordingIn(dir, 60, Date.UTC(2025, 0, 6, 15, 30), BTC);
    writeFileSync(join(dir, 'hold.ts'), HOLD);
    const { paper, backtest } = await paperAndBacktestResults<Result>(
      dir,
      `instruments: [${BTC}]\nstrategies:\n  - { id: hold, use: ./hold.ts, params: { sym: ${BTC} } }\n`,
      bars,
    );
    const asFeed = (lines: readonly string[]) =>
      perpLines(lines).map((l) => l.replaceAll('the recordings', 'the feed'));
    expect(perpLines(backtest.meta.assumptions)).toHaveLength(2);
    expect(perpLines(paper.meta.assumptions)).toEqual(asFeed(backtest.meta.assumptions));
    expect(perpLines(backtest.meta.warnings)).toEqual([
      expect.stringContaining('was held across 1 funding time (2025-01-06T16:00:00.000Z)'),
    ]);
    expect(perpLines(paper.meta.warnings)).toEqual(asFeed(backtest.meta.warnings));
  }, 90_000);
});
