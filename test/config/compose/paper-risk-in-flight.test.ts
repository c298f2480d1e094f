import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paperAndBacktestResults } from '../../kit/paper-and-backtest-runs.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const RECORDING = resolve('backtest/sessions/example-synthetic.jsonl.gz');
const tempDir = tempDirsRemovedAfterEach('keel-paper-risk-in-flight-');

/**
 * On its first quote rests a BUY 0.05 5 % under the mid and a GTE BUY 0.01 trigger 50 % above it
 * (it never fires, but counts toward maxPositionQty as if it did); on its 20th, in one hook,
 * modifies the bid to 0.09 at a marketable price (0.09 + the trigger's 0.01 reach the limit),
 * buys 0.05 at market and replaces the trigger's qty with 3.
 */
const PLUGIN = `import { z } from 'zod';
import { defineStrategy } from 'keel';

const tick = (p) => Math.round(p * 10) / 10;
export default defineStrategy({
  name: 'in-flight-probe',
  params: z.object({ sym: z.string() }),
  state: () => ({ n: 0, refs: [] }),
  onQuote: (ctx, q) => {
    const sym = ctx.params.sym;
    if (q.sym !== sym) return undefined;
    const mid = (q.bid + q.ask) / 2;
    ctx.state.n += 1;
    if (ctx.state.n === 1) {
      const bid = ctx.order.limit({ sym, side: 'BUY', qty: 0.05, price: tick(mid * 0.95) });
      const algo = ctx.order.algo({ sym, side: 'BUY', qty: 0.01, triggerPrice: tick(mid * 1.5), condition: 'GTE' });
      ctx.state.refs.push(bid.ref, algo.ref);
      return [bid, algo];
    }
    if (ctx.state.n === 20)
      return [
        ctx.order.modify(ctx.state.refs[0], { qty: 0.09, price: tick(mid * 1.001) }),
        ctx.order.market({ sym, side: 'BUY', qty: 0.05 }),
        ctx.order.replaceAlgo(ctx.state.refs[1], { qty: 3 }),
      ];
    return undefined;
  },
});
`;

type Result = {
  fills: { side: string; quantity: string; price: string }[];
  denials: { intentKind: string; check: string }[];
};

describe('maxPositionQty in a lockstep paper session and its backtest', () => {
  it('counts a modify in flight and checks an algo replacement alike in both', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'probe.ts'), PLUGIN);
    const strategies =
      'instruments: [BINANCE_PERP_BTC_USDT]\nstrategies:\n  - { id: s, use: ./probe.ts, params: { sym: BINANCE_PERP_BTC_USDT } }\nrisk:\n  maxPositionQty: 0.1\n';
    const { paper, backtest } = await paperAndBacktestResults<Result>(dir, strategies, RECORDING);
    const denied = (r: Result) => r.denials.map((d) => `${d.intentKind} ${d.check}`);
    const fills = (r: Result) => r.fills.map((f) => `${f.side} ${f.quantity} @ ${f.price}`);
    expect(denied(paper)).toEqual(['placeOrder maxPosition', 'replaceAlgoOrder maxPosition']);
    expect(denied(backtest)).toEqual(denied(paper));
    expect(fills(backtest)).toEqual(fills(paper));
    expect(paper.fills.map((f) => `${f.side} ${f.quantity}`)).toEqual(['BUY 0.09']);
  }, 90_000);
});
