import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { flatBarsRecordingIn } from '../../kit/bar-recordings.ts';
import { paperAndBacktestResults } from '../../kit/paper-and-backtest-runs.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const tempDir = tempDirsRemovedAfterEach('keel-paper-fee-model-');

const BUY_ONCE = `import { z } from 'zod';
import { defineStrategy } from '${process.cwd()}/core/kernel/index.ts';
export default defineStrategy({
  name: 'buy-once', description: 'buys 1 on the first bar',
  params: z.object({ sym: z.string() }),
  state: () => ({ done: false }),
  onStart: (ctx) => ctx.watchBars(ctx.params.sym, '1m'),
  onBar: (ctx, bar) => { if (ctx.state.done) return; ctx.state.done = true; return ctx.order.market({ sym: bar.sym, side: 'BUY', qty: 1 }); },
});
`;

type Result = { meta: { feeModel: { name: string; description: string } } };

describe('a paper report names the fee rates its venue charged, as a backtest report does', () => {
  it('states each instrument maker and taker bps and the sub-portfolio markup of the backtest', async () => {
    const dir = tempDir();
    const bars = await flatBarsRecordingIn(dir, 5, Date.UTC(2025, 0, 6, 15, 30), BTC);
    writeFileSync(join(dir, 'buy-once.ts'), BUY_ONCE);
    const { paper, backtest } = await paperAndBacktestResults<Result>(
      dir,
      `instruments: [${BTC}]\nportfolios:\n  subs:\n    - { id: sub1, feeMarkupBps: 1.25 }\nstrategies:\n  - { id: buy, use: ./buy-once.ts, portfolio: sub1, params: { sym: ${BTC} } }\n`,
      bars,
    );
    const rates = backtest.meta.feeModel.description.replace(
      'Per-instrument fees paid in the quote asset. ',
      '',
    );
    expect(rates).toMatch(
      new RegExp(
        `^${BTC}: maker [0-9.]+ bps, taker [0-9.]+ bps\\. Sub-portfolio markup 1\\.25 bps \\(of sub1, the portfolio the run trades in\\) on every rate`,
      ),
    );
    expect(paper.meta.feeModel).toEqual({
      name: 'venue',
      description: `Fees as the paper venue charged them on each fill, paid in the quote asset. ${rates}`,
    });
  }, 90_000);
});
