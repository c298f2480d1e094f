import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { keelChild } from '../../kit/keel-child-process.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2025, 2, 3);
const tempDir = tempDirsRemovedAfterEach('keel-paper-reversals-');
const LATENCY = '{ fixedMs: 10, jitterMs: 0 }';

// Short 1 on the first bar, then on each of the next 20 bars close the position and open 1 the
// other way in one hook: the market order is held behind the close (REST) until the close is
// answered (core/venue/live/sym-command-order.ts), and reaches the venue right behind it.
const STRATEGY = `import { z } from 'zod';
import { defineStrategy } from 'keel';
export default defineStrategy({
  name: 'reversals',
  params: z.object({ sym: z.string() }).strict(),
  state: () => ({ n: 0 }),
  onStart: (ctx) => ctx.watchBars(ctx.params.sym, '1m'),
  onBar: (ctx, bar) => {
    ctx.state.n++;
    if (ctx.state.n === 1) return ctx.order.market({ sym: bar.sym, side: 'SELL', qty: 1 });
    if (ctx.state.n > 21) return undefined;
    const side = ctx.state.n % 2 === 0 ? 'BUY' : 'SELL';
    return [ctx.order.closePosition(bar.sym), ctx.order.market({ sym: bar.sym, side, qty: 1 })];
  },
});
`;

type Result = { fills: { side: string; quantity: string; price: string; timestamp: number }[] };

describe('a lockstep paper run with paper.latency: close, then reverse, in one hook on every bar', () => {
  it('fills as the backtest with that latency does, each reversal on the bar after its signal', async () => {
    const dir = tempDir();
    const bars = await barsRecordingIn(
      dir,
      Array.from({ length: 24 }, (_, i) => {
        const open = 100 + (i % 3);
        return [open, open + 1, open - 1, open + 0.5];
      }),
      T0,
      BTC,
    );
    writeFileSync(join(dir, 'reversals.ts'), STRATEGY);
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    const strategy = `instruments: [${BTC}]\nstrategies:\n  - { id: rv, use: ./reversals.ts, params: { sym: ${BTC} } }\n`;
    writeFileSync(
      join(dir, 'paper.yaml'),
      `mode: paper\n${strategy}paper:\n  lockstep: true\n  speed: 1000000\n  latency: ${LATENCY}\n  source: { kind: recording, path: ${bars} }\n  startingCash: { USDT: 100000 }\nreport: { json: out/paper.json }\nlogging: { level: warn }\nmetrics: { enabled: false }\nshutdown: { cancelAllOrders: true }\n`,
    );
    writeFileSync(
      join(dir, 'backtest.yaml'),
      `mode: backtest\n${strategy}backtest:\n  recordings: [${bars}]\n  startingCash: { USDT: 100000 }\n  latency: ${LATENCY}\n  closeAtEnd: false\nreport: { json: out/backtest.json }\n`,
    );
    for (const args of [
      ['run', 'paper.yaml'],
      ['backtest', 'backtest.yaml', '--no-progress'],
    ]) {
      const run = keelChild(args, { cwd: dir, timeoutMs: 90_000 });
      expect(run.code, run.stderr).toBe(0);
    }
    const lines = (name: string) =>
      (JSON.parse(readFileSync(join(dir, `out/${name}.json`), 'utf8')) as Result).fills.map(
        (f) => `${f.side} ${f.quantity} @ ${f.price} T0+${f.timestamp - T0}ms`,
      );
    const backtest = lines('backtest');
    // The entry, then a close and an opening fill on each of the 20 bars after a signal.
    expect(backtest).toHaveLength(41);
    expect(backtest.slice(1, 3)).toEqual(['BUY 1 @ 102 T0+120010ms', 'BUY 1 @ 102 T0+120010ms']);
    // Before: the held order reached the venue 10 ms after the close was answered, after the bar's
    // cutoff, and met the bar after (each after the venue's 2 s stall bound).
    expect(lines('paper')).toEqual(backtest);
  }, 180_000);
});
