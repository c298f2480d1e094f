import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { paperAndBacktestResults } from '../../kit/paper-and-backtest-runs.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2025, 2, 3);
const tempDir = tempDirsRemovedAfterEach('keel-paper-legs-');

/** Enters with tp / sl on its first bar; on a later bar, a long with no algo order listed gets a stop of its own. */
const GUARD = `import { z } from 'zod';
import { defineStrategy } from 'keel';
const params = z.object({ sym: z.string() }).strict();
export default defineStrategy({
  name: 'guard',
  description: 'guards a long with a stop when it sees no tp / sl leg',
  params,
  state: () => ({ n: 0 }),
  onStart: (ctx) => ctx.watchBars(ctx.params.sym, '1m'),
  onBar: (ctx) => {
    const { sym } = ctx.params;
    ctx.state.n++;
    if (ctx.state.n === 1)
      return ctx.order.market({ sym, side: 'BUY', qty: 1, tp: { triggerPrice: 103 }, sl: { triggerPrice: 97 } });
    const qty = ctx.netQty(sym);
    if (qty.gt(0) && ctx.openAlgoOrders(sym).length === 0)
      return ctx.order.algo({ sym, side: 'SELL', qty, triggerPrice: 99, condition: 'LTE', reduceOnly: true });
    return undefined;
  },
});
`;

const BARS = [
  [100, 100.5, 99.5, 100],
  [100, 101, 99.5, 100.5],
  [100.5, 102.5, 100, 102],
  [102, 103.5, 96, 97],
  [97, 98.5, 96.5, 98],
  [97, 98.5, 96.5, 98],
  [97, 98.5, 96.5, 98],
];

/** The 1m bars with a MARK_PRICE at each bar's close, half way through it. */
async function barsWithMarks(dir: string): Promise<string> {
  const path = await barsRecordingIn(dir, BARS, T0, BTC);
  const [header, ...lines] = readFileSync(path, 'utf8').trimEnd().split('\n');
  const marks = BARS.map((bar, i) => {
    const ts = T0 + i * 60_000 + 30_000;
    const msg = { arg: { channel: 'MARK_PRICE', sym: BTC }, data: { markPrice: String(bar[3]), ts } };
    return { line: JSON.stringify({ recvTs: ts, source: 'market-data', msg }), ts };
  });
  const klines = lines.map((line) => ({ line, ts: (JSON.parse(line) as { recvTs: number }).recvTs }));
  const sorted = [...marks, ...klines].sort((a, b) => a.ts - b.ts).map((r) => r.line);
  writeFileSync(path, `${[header, ...sorted].join('\n')}\n`);
  return path;
}

describe('a lockstep paper run on bars, with no latency', () => {
  it('lists the tp / sl legs of an entry on the bar that filled it, as the backtest does', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'guard.ts'), GUARD);
    const recording = await barsWithMarks(dir);
    type Result = { fills: { side: string; price: string; qty?: string }[] };
    const { paper, backtest } = await paperAndBacktestResults<Result>(
      dir,
      `instruments: [${BTC}]\nstrategies:\n  - { id: g, use: ./guard.ts, params: { sym: ${BTC} } }\n`,
      recording,
    );
    const lines = (r: Result) => r.fills.map((f) => `${f.side} @ ${f.price}`);
    expect(lines(backtest)).toEqual(['BUY @ 100', 'SELL @ 97']);
    expect(lines(paper)).toEqual(lines(backtest));
  }, 120_000);
});
