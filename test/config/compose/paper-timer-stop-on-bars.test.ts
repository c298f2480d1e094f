import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { keelInProcess } from '../../kit/keel-in-process.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2025, 2, 3);
const tempDir = tempDirsRemovedAfterEach('keel-paper-timer-stop-');

// Six quiet bars first: a realtime paper session may join its replay a few bars late (on a busy
// machine). On bar 6 (closing at T0+7 min) a 30 s timer; it places a SELL stop 2 under 100 (98)
// inside bar 7, whose low 90 came before the stop existed (backtest/sim/README.md: it sits that
// bar out). Bar 8's low 97 triggers it; the venue's stop fills at 98 inside bar 8 (at its close),
// the emulated one's market order at bar 9's open, 98, stamped at that open: the same fill.
const BARS = [
  [100, 100, 100, 100],
  [100, 100, 100, 100],
  [100, 100, 100, 100],
  [100, 100, 100, 100],
  [100, 100, 100, 100],
  [100, 100, 100, 100],
  [100, 100, 100, 100],
  [100, 100, 90, 99.5],
  [99.5, 99.5, 97, 98],
  [98, 98, 98, 98],
  [98, 98, 98, 98],
  [98, 98, 98, 98],
];

const STRATEGY = `import { z } from 'zod';
import { defineStrategy } from 'keel';
const params = z.object({ sym: z.string(), emulated: z.boolean() }).strict();
export default defineStrategy({
  name: 'timer-stop',
  params,
  onStart: (ctx) => ctx.watchBars(ctx.params.sym, '1m'),
  onBar: (ctx, bar) => {
    if (bar.openTime === ${T0 + 6 * 60_000}) ctx.setTimer(30_000, 'place');
    return undefined;
  },
  onTimer: (ctx) =>
    ctx.params.emulated
      ? ctx.order.trailingStop({ sym: ctx.params.sym, side: 'SELL', qty: 1, offset: { price: 2 }, reduceOnly: false, ref: 'stop' })
      : ctx.order.algo({ sym: ctx.params.sym, side: 'SELL', qty: 1, triggerPrice: 98, condition: 'LTE', ref: 'stop' }),
});
`;

type Result = { fills: { side: string; price: string; timestamp: number }[] };

/** Runs the strategy in this process, its stop the venue's or emulated, as a default paper session (no lockstep, no latency) or a backtest. */
async function fills(
  dir: string,
  recording: string,
  mode: 'paper' | 'backtest',
  emulated: boolean,
): Promise<string[]> {
  const name = `${mode}-${emulated ? 'emulated' : 'venue'}`;
  const strategy = `instruments: [${BTC}]\nstrategies:\n  - { id: t, use: ./stop.ts, params: { sym: ${BTC}, emulated: ${emulated} } }\n`;
  writeFileSync(
    join(dir, `${name}.yaml`),
    mode === 'paper'
      ? `mode: paper\n${strategy}paper:\n  speed: 100\n  source: { kind: recording, path: ${recording} }\n  startingCash: { USDT: 100000 }\nreport: { json: out/${name}.json }\nlogging: { level: warn }\nmetrics: { enabled: false }\nshutdown: { cancelAllOrders: true }\n`
      : `mode: backtest\n${strategy}backtest:\n  recordings: [${recording}]\n  startingCash: { USDT: 100000 }\n  latency: { fixedMs: 0, jitterMs: 0 }\n  closeAtEnd: false\nreport: { json: out/${name}.json }\n`,
  );
  const run = await keelInProcess(
    mode === 'paper' ? ['run', `${name}.yaml`] : ['backtest', `${name}.yaml`, '--no-progress'],
    { cwd: dir },
  );
  expect(run.code, run.stderr).toBe(0);
  const result = JSON.parse(readFileSync(join(dir, `out/${name}.json`), 'utf8')) as Result;
  return result.fills.map((f) => `${f.side} @ ${f.price} T0+${f.timestamp - T0}ms`);
}

describe('a stop a strategy timer places inside a bar, in default paper (no lockstep, no latency)', () => {
  it('sits that bar out on the paper venue as in the backtest and as the emulated stop', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'stop.ts'), STRATEGY);
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    const recording = await barsRecordingIn(dir, BARS, T0, BTC);
    const expected = ['SELL @ 98 T0+540000ms'];
    expect(await fills(dir, recording, 'backtest', false)).toEqual(expected);
    expect(await fills(dir, recording, 'backtest', true)).toEqual(expected);
    expect(await fills(dir, recording, 'paper', true)).toEqual(expected);
    // Before the fix the paper venue ran the stop at bar 4's close: bar 5's low stopped it out.
    expect(await fills(dir, recording, 'paper', false)).toEqual(expected);
    // Its result says a backtest of its recording will not reproduce it exactly, and why.
    const paper = JSON.parse(readFileSync(join(dir, 'out/paper-venue.json'), 'utf8')) as {
      meta: { assumptions: string[] };
    };
    const said = paper.meta.assumptions.join('\n');
    expect(said).toContain('Without lockstep (paper.lockstep false)');
    expect(said).toContain('will not reproduce these fills exactly. Set paper.lockstep: true');
    expect(said).toContain('On bars, equity is sampled as the events reach the session');
  }, 180_000);
});
