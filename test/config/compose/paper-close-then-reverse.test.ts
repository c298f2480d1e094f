import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { paperAndBacktestResults } from '../../kit/paper-and-backtest-runs.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2025, 2, 3);
const tempDir = tempDirsRemovedAfterEach('keel-port-exclusive-');

// backtesting.py's `exclusive_orders=True` ported as the obvious Keel code: on a reversal signal,
// close the position, then open the new one: `return [ctx.order.closePosition(sym), ctx.order.market(...)]`.
const STRATEGY_TS = `import { z } from 'zod';
import { defineStrategy } from '${resolve('core/kernel/index.ts')}';
export default defineStrategy({
  name: 'exclusive',
  params: z.object({}),
  state: () => ({ n: 0 }),
  onStart: (ctx) => ctx.watchBars('${BTC}', '1m'),
  onBar: (ctx, bar) => {
    ctx.state.n++;
    if (ctx.state.n === 1) return ctx.order.market({ sym: bar.sym, side: 'SELL', qty: 1 });
    if (ctx.state.n === 3) return [ctx.order.closePosition(bar.sym), ctx.order.market({ sym: bar.sym, side: 'BUY', qty: 1 })];
  },
});
`;

type Result = { fills: { side: string; quantity: string; price: string; clientOrderId: string }[] };

describe('porting backtesting.py exclusive_orders: close, then open the other way, in one hook', () => {
  it('ends with the same position in paper as in the backtest (long 1)', async () => {
    const dir = tempDir();
    const bars = await barsRecordingIn(
      dir,
      Array.from({ length: 6 }, () => [100, 101, 99, 100]),
      T0,
      BTC,
    );
    writeFileSync(join(dir, 'exclusive.ts'), STRATEGY_TS);
    const { paper, backtest } = await paperAndBacktestResults<Result>(
      dir,
      `instruments: [${BTC}]\nstrategies:\n  - { id: ex, use: ./exclusive.ts }\n`,
      bars,
    );
    const net = (r: Result) =>
      r.fills.reduce((q, f) => q + (f.side === 'BUY' ? 1 : -1) * Number(f.quantity), 0);
    expect(net(backtest)).toBe(1); // short 1 closed, then long 1: backtesting.py's answer too
    expect(net(paper)).toBe(net(backtest));
  }, 120_000);
});
