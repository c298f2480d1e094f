import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { flatBarsRecordingIn } from '../../kit/bar-recordings.ts';
import { paperAndBacktestResults } from '../../kit/paper-and-backtest-runs.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2025, 2, 3);
const tempDir = tempDirsRemovedAfterEach('keel-paper-close-');

/**
 * Buys 10 on its first bar and closes the position on its third; it appends `start` to
 * `heard.txt` when a run starts, then every order update it hears as `<side> <reduceOnly> <state>`
 * (the paper session runs first, then the backtest).
 */
const BUY_THEN_CLOSE = `import { appendFileSync } from 'node:fs';
import { z } from 'zod';
import { defineStrategy } from 'keel';

export default defineStrategy({
  name: 'buy-then-close',
  params: z.object({ sym: z.string() }),
  state: () => ({ bars: 0 }),
  onStart: (ctx) => {
    appendFileSync('heard.txt', 'start\\n');
    ctx.watchBars(ctx.params.sym, '1m');
  },
  onBar: (ctx) => {
    ctx.state.bars += 1;
    if (ctx.state.bars === 1) return ctx.order.market({ sym: ctx.params.sym, side: 'BUY', qty: 10 });
    if (ctx.state.bars === 3) return ctx.order.closePosition(ctx.params.sym);
  },
  onOrder: (_ctx, order) => {
    appendFileSync('heard.txt', \`\${order.side} \${order.reduceOnly} \${order.orderState}\\n\`);
  },
});
`;

describe('a paper run’s position close', () => {
  it('sends an order its strategy owns and hears of (NEW, FILLED), as the backtest’s does', async () => {
    const dir = tempDir();
    const bars = await flatBarsRecordingIn(dir, 8, T0, BTC);
    writeFileSync(join(dir, 'buy-then-close.ts'), BUY_THEN_CLOSE);
    type Result = {
      orders: { strategyId?: string; side: string; orderState: string; reduceOnly: boolean }[];
    };
    const { paper, backtest } = await paperAndBacktestResults<Result>(
      dir,
      `instruments: [${BTC}]\nstrategies:\n  - { id: s, use: ./buy-then-close.ts, params: { sym: ${BTC} } }\n`,
      bars,
    );
    const rows = (r: Result) =>
      r.orders.map((o) => `${o.strategyId ?? '-'} ${o.side} ${o.reduceOnly} ${o.orderState}`);
    expect(rows(backtest)).toEqual(['s BUY false FILLED', 's SELL true FILLED']);
    expect(rows(paper)).toEqual(rows(backtest));
    const [paperHeard, backtestHeard] = readFileSync(join(dir, 'heard.txt'), 'utf8')
      .split('start\n')
      .slice(1)
      .map((run) => run.trimEnd().split('\n'));
    const closeHeard = (heard: readonly string[] = []) =>
      heard.filter((line) => line.startsWith('SELL true')).map((line) => line.split(' ')[2]);
    expect(closeHeard(backtestHeard)).toEqual(['NEW', 'FILLED']);
    expect(closeHeard(paperHeard)).toEqual(closeHeard(backtestHeard));
  }, 90_000);
});
