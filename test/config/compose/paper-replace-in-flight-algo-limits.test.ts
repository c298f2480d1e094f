import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paperAndBacktestResults } from '../../kit/paper-and-backtest-runs.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const RECORDING = resolve('backtest/sessions/example-synthetic.jsonl.gz');
const tempDir = tempDirsRemovedAfterEach('keel-commitrev-replace-');

/** First quote: a GTE BUY 0.01 trigger just above the mid, and at once a replace of it to qty 3. */
const PLUGIN = `import { z } from 'zod';
import { defineStrategy } from 'keel';

const tick = (p) => Math.round(p * 10) / 10;
export default defineStrategy({
  name: 'replace-probe',
  params: z.object({ sym: z.string() }),
  state: () => ({ n: 0 }),
  onQuote: (ctx, q) => {
    const sym = ctx.params.sym;
    if (q.sym !== sym) return undefined;
    ctx.state.n += 1;
    if (ctx.state.n !== 1) return undefined;
    const mid = (q.bid + q.ask) / 2;
    const algo = ctx.order.algo({ sym, side: 'BUY', qty: 0.01, triggerPrice: tick(mid * 1.0002), condition: 'GTE' });
    return [algo, ctx.order.replaceAlgo(algo.ref, { qty: 3 })];
  },
});
`;

type Result = {
  fills: { side: string; quantity: string; price: string }[];
  denials: { intentKind: string; check: string }[];
};

describe('maxPositionQty and a replace of an algo order not answered yet (paper and backtest)', () => {
  it('denies growing it past the limit', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'probe.ts'), PLUGIN);
    const strategies =
      'instruments: [BINANCE_PERP_BTC_USDT]\nstrategies:\n  - { id: s, use: ./probe.ts, params: { sym: BINANCE_PERP_BTC_USDT } }\nrisk:\n  maxPositionQty: 0.1\n';
    const { paper, backtest } = await paperAndBacktestResults<Result>(dir, strategies, RECORDING);
    const summary = (r: Result) => ({
      denied: r.denials.map((d) => `${d.intentKind} ${d.check}`),
      fills: r.fills.map((f) => `${f.side} ${f.quantity}`),
    });
    expect({ paper: summary(paper), backtest: summary(backtest) }).toEqual({
      paper: { denied: ['replaceAlgoOrder maxPosition'], fills: ['BUY 0.01'] },
      backtest: { denied: ['replaceAlgoOrder maxPosition'], fills: ['BUY 0.01'] },
    });
  }, 120_000);
});
