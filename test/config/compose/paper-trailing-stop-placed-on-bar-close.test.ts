import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { keelInProcess } from '../../kit/keel-in-process.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2025, 2, 3);
const tempDir = tempDirsRemovedAfterEach('keel-paper-trail-on-bar-');

// On the first bar the strategy sees (close 100), a SELL trailing stop 2 under it (98), placed from
// onBar, at once or after a little work (as any indicator update takes). README: "one placed on a
// bar's close ... meets the next bar from its open". The next bar's low is 90: the stop must
// trigger on it. Without lockstep the session's clock runs while the strategy works, and the
// paper session has no latency model (no reaction allowance).
const strategy = (workMs: number) => `import { z } from 'zod';
import { defineStrategy } from 'keel';
const params = z.object({ sym: z.string() }).strict();
export default defineStrategy({
  name: 'trail-on-bar',
  params,
  state: () => ({ bars: 0 }),
  onStart: (ctx) => ctx.watchBars(ctx.params.sym, '1m'),
  onBar: (ctx) => {
    ctx.state.bars++;
    if (ctx.state.bars !== 1) return undefined;
    const until = Date.now() + ${workMs}; while (Date.now() < until) {}
    return ctx.order.trailingStop({ sym: ctx.params.sym, side: 'SELL', qty: 1, offset: { price: 2 }, reduceOnly: false, ref: 'stop' });
  },
});
`;

describe('paper (no paper.latency): a trailing stop placed in onBar on bar data', () => {
  for (const lockstep of [true, false])
    for (const workMs of [0, 3])
      it(`meets the next bar and triggers on its low (lockstep ${lockstep}, ${workMs} ms of work first)`, async () => {
        const dir = tempDir();
        writeFileSync(join(dir, 'trail.ts'), strategy(workMs));
        writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
        const recording = await barsRecordingIn(
          dir,
          [
            [100, 100, 100, 100],
            [100, 100, 100, 100],
            [100, 100, 90, 95],
            [100, 100, 100, 100],
            [100, 100, 100, 100],
            [100, 100, 100, 100],
          ],
          T0,
          BTC,
        );
        writeFileSync(
          join(dir, 'paper.yaml'),
          `mode: paper\ninstruments: [${BTC}]\nstrategies:\n  - { id: t, use: ./trail.ts, params: { sym: ${BTC} } }\npaper:\n  lockstep: ${lockstep}\n  speed: 100\n  source: { kind: recording, path: ${recording} }\n  startingCash: { USDT: 100000 }\nreport: { json: out/paper.json }\nlogging: { level: warn }\nmetrics: { enabled: false }\n`,
        );
        const run = await keelInProcess(['run', 'paper.yaml'], { cwd: dir });
        expect(run.code, run.stderr).toBe(0);
        const result = JSON.parse(readFileSync(join(dir, 'out/paper.json'), 'utf8')) as {
          trailingStops?: { ref: string; status: string; steps: { ts: number; status: string }[] }[];
        };
        const steps = (result.trailingStops ?? []).flatMap((s) =>
          s.steps.map((st) => `${s.ref} ${st.status} T0+${st.ts - T0}ms`),
        );
        // The next bar closes at T0+180s; the kernel stamps the trigger when it gets the bar, which
        // without lockstep is a few ms (times the speed) later.
        expect(steps).toEqual([
          expect.stringMatching(/PENDING/),
          expect.stringMatching(/ACTIVE/),
          expect.stringMatching(/^stop TRIGGERED T0\+18\d{4}ms$/),
        ]);
      }, 120_000);
});
