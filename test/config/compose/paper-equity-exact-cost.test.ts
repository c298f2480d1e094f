import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { paperAndBacktestResults } from '../../kit/paper-and-backtest-runs.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2025, 0, 6, 14);
const tempDir = tempDirsRemovedAfterEach('keel-recon-avg-');

/** Opens 100, 101, 101 (three buys: cost 302, avg 100.666...), then 102 (sell 1), then a climb. */
const OPENS = [100, 100, 100, 101, 101, 102, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111];
const BARS = OPENS.map((o) => [o, o + 0.5, o - 0.5, o]);

const PLUGIN = `import { z } from 'zod';
import { defineStrategy } from 'keel';
export default defineStrategy({
  name: 'three-buys-one-sell',
  params: z.object({ sym: z.string() }),
  state: () => ({ bars: 0 }),
  onStart: (ctx) => ctx.watchBars(ctx.params.sym, '1m'),
  onBar: (ctx, bar) => {
    if (!bar.closed) return undefined;
    ctx.state.bars++;
    const sym = ctx.params.sym;
    if (ctx.state.bars >= 2 && ctx.state.bars <= 4) return ctx.order.market({ sym, side: 'BUY', qty: '1' });
    if (ctx.state.bars === 5) return ctx.order.market({ sym, side: 'SELL', qty: '1' });
    return undefined;
  },
});
`;

type Result = {
  fills: { side: string; price: string; rpnl: string; fee: string }[];
  equityCurve: { ts: number; equity: string }[];
  metrics: { equityFinal: string };
};

// The kernel re-marks a leg's unrealized PnL to newer prices between the venue's reports: from the
// report's own figure and mark, so the paper equity keeps the venue's exact accounting (the leg's
// average price, 302 / 3, is a 40-digit rounding).
describe('paper equity of a position whose average price does not end', () => {
  it('carries no rounding noise and matches the backtest', async () => {
    const dir = tempDir();
    const bars = await barsRecordingIn(dir, BARS, T0, SYM);
    writeFileSync(join(dir, 'three.ts'), PLUGIN);
    const strategies = `instruments: [${SYM}]\nstrategies:\n  - { id: t, use: ./three.ts, params: { sym: ${SYM} } }\n`;
    const { paper, backtest } = await paperAndBacktestResults<Result>(dir, strategies, bars);
    const long = (r: Result) =>
      r.equityCurve.filter((p) => p.equity.replace(/^.*\./, '').length > 12).map((p) => p.equity);
    expect(long(paper)).toEqual([]);
    // by hand: 100000 - 0.202 fees + 1.333333333333 realized + (2 x 111 - 201.333333333333) unrealized
    expect(paper.metrics.equityFinal).toBe('100021.798');
    expect(backtest.metrics.equityFinal).toBe('100021.798');
  }, 120_000);
});
