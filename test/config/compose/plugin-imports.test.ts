import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../../config/cli/index.ts';
import { keelChild } from '../../kit/keel-child-process.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

/** SYNTHETIC BTC, ETH and AAPL from 2025-01-06 14:30 to 15:00 UTC: BBO, trades and 1m klines. */
const SESSION = resolve('backtest/sessions/example-synthetic.jsonl.gz');
const newDir = tempDirsRemovedAfterAll('keel-outside-plugin-');

describe('a strategy plugin kept outside the Keel repository', () => {
  it("imports 'keel', 'keel/model', zod, trading-signals and rxjs with no package.json or node_modules of its own", () => {
    const dir = newDir();
    writeFileSync(
      join(dir, 'buy-first-bar.ts'),
      `import { z } from 'zod';
import { filter } from 'rxjs';
import { MACD, EMA } from 'trading-signals';
import { defineStrategy, warmUp } from 'keel';
import { D } from 'keel/model';

export default defineStrategy({
  name: 'buy-first-bar',
  params: z.object({ sym: z.string(), qty: z.string() }),
  state: () => ({ done: false, macd: warmUp(new MACD(new EMA(3), new EMA(5), new EMA(2))) }),
  setup: (ctx) => {
    ctx.bars(ctx.params.sym, '1m').pipe(filter((bar) => bar.closed)).subscribe((bar) => ctx.state.macd.update(bar.close));
    return undefined;
  },
  onBar: (ctx, bar) => {
    if (ctx.state.done || !ctx.state.macd.warm) return;
    ctx.state.done = true;
    return ctx.order.market({ sym: bar.sym, side: 'BUY', qty: D(ctx.params.qty) });
  },
});
`,
    );
    writeFileSync(
      join(dir, 'bt.yaml'),
      `mode: backtest
instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - { id: b, use: ./buy-first-bar.ts, params: { sym: BINANCE_PERP_BTC_USDT, qty: '0.01' } }
backtest:
  recordings: [${SESSION}]
  startingCash: { USDT: 100000 }
  eventCache: false
report: { html: out/report.html, json: out/result.json }
`,
    );
    const run = keelChild(['backtest', 'bt.yaml', '--no-progress'], { cwd: dir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(EXIT.OK);
    expect(run.stdout).toMatch(/^ {2}fills [1-9]/m);
  }, 60_000);
});
