import { describe, expect, it } from 'vitest';
import { SYNTHETIC_BTC_PERP } from '../../../backtest/synthetic/index.ts';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { deniedIntents, maxAbsPosition, onTick, scriptedBacktest } from '../../kit/scripted-backtests.ts';
import { syntheticSessionFile } from '../../kit/synthetic-session-files.ts';

const SYM = SYNTHETIC_BTC_PERP.sym;

describe('maxPositionQty and REDUCING count what is in flight', () => {
  const session = syntheticSessionFile({ seed: 11, minutes: 3, file: 'session.jsonl.gz' });

  it('counts a modify in flight at the larger qty it asks for when a new order is checked', async () => {
    // max 0.1. A BUY 0.05 rests 5 % under the mid. One hook: modify it to 0.1 at a marketable
    // price (0.1 alone: passes), and a BUY 0.05 at market, which must count the order at 0.1, not
    // at the 0.05 it shows until the venue answers: both filled, the position would be 0.15.
    const result = await scriptedBacktest(
      session.path,
      [
        (ctx, mid) => {
          const order = ctx.order.limit({ sym: SYM, side: 'BUY', qty: 0.05, price: onTick(mid * 0.95) });
          ctx.state.refs.push(order.ref);
          return order;
        },
        () => undefined,
        (ctx, mid) => [
          ctx.order.modify(ctx.state.refs[0] as string, { qty: 0.1, price: onTick(mid * 1.001) }),
          ctx.order.market({ sym: SYM, side: 'BUY', qty: 0.05 }),
        ],
      ],
      { limits: { maxPositionQty: '0.1' } },
    );
    expect(deniedIntents(result)).toEqual(['placeOrder maxPosition']);
    expect(maxAbsPosition(result.fills).toFixed()).toBe('0.1');
  });

  it('counts a position close in flight as claiming the position when a new order is checked', async () => {
    // max 0.1, long 0.1. One hook: closePosition, and a SELL 0.2 at market. Checked as if the
    // close were not on its way, |0.1 - 0.2| = 0.1 passes; the close takes the position to 0 and
    // the SELL to -0.2.
    const result = await scriptedBacktest(
      session.path,
      [
        (ctx) => ctx.order.market({ sym: SYM, side: 'BUY', qty: 0.1 }),
        () => undefined,
        (ctx) => [ctx.order.closePosition(SYM), ctx.order.market({ sym: SYM, side: 'SELL', qty: 0.2 })],
      ],
      { limits: { maxPositionQty: '0.1' } },
    );
    expect(deniedIntents(result)).toEqual(['placeOrder maxPosition']);
    expect(maxAbsPosition(result.fills).toFixed()).toBe('0.1');
  });

  it('in REDUCING state, does not let a sell beside a close in flight open a short', async () => {
    // Long 0.1, then REDUCING. One hook: closePosition and a SELL 0.1 at market. The SELL is not
    // reducing: the close already claims the whole position.
    const gate = new RiskGate({});
    const result = await scriptedBacktest(
      session.path,
      [
        (ctx) => ctx.order.market({ sym: SYM, side: 'BUY', qty: 0.1 }),
        () => {
          gate.reduceOnly('operator: reduce only');
          return undefined;
        },
        (ctx) => [ctx.order.closePosition(SYM), ctx.order.market({ sym: SYM, side: 'SELL', qty: 0.1 })],
      ],
      gate,
    );
    let position = D(0);
    for (const f of result.fills)
      position = f.side === 'BUY' ? position.add(f.quantity) : position.sub(f.quantity);
    expect(position.toFixed()).toBe('0');
    expect(deniedIntents(result)).toEqual(['placeOrder tradingState']);
  });

  it('still lets sells pass in REDUCING that each reduce what the one before left', async () => {
    // The control: long 0.2 in REDUCING, two SELL 0.1 a quote apart: each reduces what the
    // position has left once the one before was answered, and both pass.
    const gate = new RiskGate({});
    const result = await scriptedBacktest(
      session.path,
      [
        (ctx) => ctx.order.market({ sym: SYM, side: 'BUY', qty: 0.2 }),
        () => {
          gate.reduceOnly('operator: reduce only');
          return undefined;
        },
        (ctx) => ctx.order.market({ sym: SYM, side: 'SELL', qty: 0.1 }),
        () => undefined,
        (ctx) => ctx.order.market({ sym: SYM, side: 'SELL', qty: 0.1 }),
      ],
      gate,
    );
    expect(deniedIntents(result)).toEqual([]);
    expect([...result.fills].map((f) => `${f.side} ${f.quantity.toFixed()}`)).toEqual([
      'BUY 0.2',
      'SELL 0.1',
      'SELL 0.1',
    ]);
  });
});
