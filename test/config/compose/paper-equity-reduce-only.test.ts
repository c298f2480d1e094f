import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { paperAndBacktestResults } from '../../kit/paper-and-backtest-runs.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const AAPL = 'US_EQUITY_AAPL';
/** Monday 2024-06-03 14:00Z, 10:00 New York: the regular session is open. */
const T0 = Date.UTC(2024, 5, 3, 14);
const tempDir = tempDirsRemovedAfterEach('keel-paper-equity-ro-');

/** 1m bars around 100; the 16th reaches 102, through the reduce-only SELL's limit 101. */
const BARS = Array.from({ length: 20 }, (_, i) =>
  i === 15 ? [100, 102, 99.5, 100] : [100, 100.5, 99.5, 100],
);

/** Buys 100 on the first closed bar, rests a reduce-only SELL 100 @ 101 on the 6th, sells 100 at market on the 11th. */
const PLUGIN = `import { z } from 'zod';
import { defineStrategy } from 'keel';

export default defineStrategy({
  name: 'reduce-only-then-flat',
  params: z.object({ sym: z.string() }),
  state: () => ({ bars: 0 }),
  onStart: (ctx) => ctx.watchBars(ctx.params.sym, '1m'),
  onBar: (ctx, bar) => {
    if (!bar.closed) return undefined;
    ctx.state.bars++;
    const sym = ctx.params.sym;
    if (ctx.state.bars === 1) return ctx.order.market({ sym, side: 'BUY', qty: '100' });
    if (ctx.state.bars === 6) return ctx.order.limit({ sym, side: 'SELL', qty: '100', price: '101', reduceOnly: true });
    if (ctx.state.bars === 11) return ctx.order.market({ sym, side: 'SELL', qty: '100' });
    return undefined;
  },
});
`;

type Result = {
  fills: { clientOrderId: string; side: string; price: string; timestamp: number }[];
  orders: { clientOrderId: string; orderState: string; timeInForce: string; reduceOnly?: boolean }[];
};

describe('a reduce-only US-equity order in paper and in a backtest', () => {
  it('is neither trimmed nor cancelled when the position goes flat: both fill it, as the venue does', async () => {
    const dir = tempDir();
    const bars = await barsRecordingIn(dir, BARS, T0, AAPL);
    writeFileSync(join(dir, 'reduce-only-then-flat.ts'), PLUGIN);
    const strategies = `instruments: [{ sym: ${AAPL}, overrides: { settleAsset: USDT } }]\nstrategies:\n  - { id: ro, use: ./reduce-only-then-flat.ts, params: { sym: ${AAPL} } }\n`;
    const { paper, backtest } = await paperAndBacktestResults<Result>(dir, strategies, bars);
    const lines = (r: Result) => r.fills.map((f) => `${f.side} @ ${f.price} t=${f.timestamp}`);
    const states = (r: Result) => r.orders.map((o) => `${o.orderState} ${o.timeInForce} ${o.reduceOnly}`);
    expect(lines(backtest)).toEqual(lines(paper));
    expect(states(backtest)).toEqual(states(paper));
    expect(backtest.fills.map((f) => f.side)).toEqual(['BUY', 'SELL', 'SELL']);
  }, 60_000);
});
