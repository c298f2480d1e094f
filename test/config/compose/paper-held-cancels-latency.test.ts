import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { keelChild } from '../../kit/keel-child-process.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2025, 2, 3);
const tempDir = tempDirsRemovedAfterEach('keel-paper-held-cancels-');

// On each of 10 bars: two resting buys far below the market, both cancelled in the same hook,
// before the venue acknowledged them: each cancel is held until its order's ack.
const STRATEGY = `import { z } from 'zod';
import { defineStrategy } from 'keel';
export default defineStrategy({
  name: 'placecancel',
  params: z.object({ sym: z.string() }).strict(),
  state: () => ({ n: 0 }),
  onStart: (ctx) => ctx.watchBars(ctx.params.sym, '1m'),
  onBar: (ctx, bar) => {
    ctx.state.n++;
    if (ctx.state.n > 10) return undefined;
    const a = ctx.order.limit({ sym: bar.sym, side: 'BUY', qty: 1, price: 50 });
    const b = ctx.order.limit({ sym: bar.sym, side: 'BUY', qty: 1, price: 51 });
    return [a, b, ctx.order.cancel(a.ref), ctx.order.cancel(b.ref)];
  },
});
`;

type Result = { orders?: { orderState: string }[] };

describe('lockstep paper with jittered latency: two orders placed and cancelled in one hook', () => {
  it('never leaves the venue waiting for its stall bound, and every order ends cancelled', async () => {
    const dir = tempDir();
    const bars = await barsRecordingIn(
      dir,
      Array.from({ length: 14 }, (_, i) => {
        const open = 100 + (i % 3);
        return [open, open + 1, open - 1, open + 0.5];
      }),
      T0,
      BTC,
    );
    writeFileSync(join(dir, 'pc.ts'), STRATEGY);
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    const strategy = `instruments: [${BTC}]\nstrategies:\n  - { id: pc, use: ./pc.ts, params: { sym: ${BTC} } }\n`;
    writeFileSync(
      join(dir, 'paper.yaml'),
      `mode: paper\n${strategy}paper:\n  lockstep: true\n  speed: 1000000\n  latency: { fixedMs: 10, jitterMs: 40 }\n  source: { kind: recording, path: ${bars} }\n  startingCash: { USDT: 100000 }\nreport: { json: out/paper.json }\nlogging: { level: warn }\nmetrics: { enabled: false }\nshutdown: { cancelAllOrders: true }\n`,
    );
    const run = keelChild(['run', 'paper.yaml'], { cwd: dir, timeoutMs: 120_000 });
    expect(run.code, run.stderr).toBe(0);
    // Each stall would have cost 2 s of wall time per hook; the venue says when it waited on it.
    expect(run.stderr).not.toContain('stall bound');
    const result = JSON.parse(readFileSync(join(dir, 'out/paper.json'), 'utf8')) as Result;
    const states = (result.orders ?? []).map((o) => o.orderState);
    expect(states).toEqual(Array.from({ length: 20 }, () => 'CANCELLED'));
  }, 180_000);
});
