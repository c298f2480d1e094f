import { describe, expect, it } from 'vitest';
import { SYNTHETIC_BTC_PERP } from '../../../backtest/synthetic/index.ts';
import { deniedIntents, onTick, scriptedBacktest } from '../../kit/scripted-backtests.ts';
import { syntheticSessionFile } from '../../kit/synthetic-session-files.ts';

const SYM = SYNTHETIC_BTC_PERP.sym;

describe('maxOpenOrders and algo orders', () => {
  const session = syntheticSessionFile({ seed: 11, minutes: 3, file: 'session.jsonl.gz' });

  it('bounds the orders algo orders put on the book when they fire', async () => {
    // maxOpenOrders 2: two bids rest 5 % under the mid, then three GTE BUY triggers just above it
    // whose limit orders (5 % under) rest once fired: each trigger is denied, nothing more opens.
    const result = await scriptedBacktest(
      session.path,
      [
        (ctx, mid) => [
          ctx.order.limit({ sym: SYM, side: 'BUY', qty: 0.01, price: onTick(mid * 0.95) }),
          ctx.order.limit({ sym: SYM, side: 'BUY', qty: 0.01, price: onTick(mid * 0.95) }),
        ],
        () => undefined,
        (ctx, mid) =>
          [0, 1, 2].map(() =>
            ctx.order.algo({
              sym: SYM,
              side: 'BUY',
              qty: 0.01,
              triggerPrice: onTick(mid * 1.0001),
              condition: 'GTE',
              price: onTick(mid * 0.95),
            }),
          ),
      ],
      { limits: { maxOpenOrders: 2 } },
    );
    const open = [...result.orders].filter((o) => o.orderState === 'OPEN' || o.orderState === 'NEW');
    expect({ open: open.length, denied: deniedIntents(result) }).toEqual({
      open: 2,
      denied: Array(3).fill('placeAlgoOrder maxOpenOrders'),
    });
  });

  it('counts algo orders not triggered yet, and those not answered yet, when an order is placed', async () => {
    // maxOpenOrders 2: one hook sends a GTE BUY trigger far above the mid (it never fires) and
    // two bids: the trigger, not answered yet, takes one of the two places.
    const result = await scriptedBacktest(
      session.path,
      [
        (ctx, mid) => [
          ctx.order.algo({
            sym: SYM,
            side: 'BUY',
            qty: 0.01,
            triggerPrice: onTick(mid * 1.5),
            condition: 'GTE',
          }),
          ctx.order.limit({ sym: SYM, side: 'BUY', qty: 0.01, price: onTick(mid * 0.95) }),
          ctx.order.limit({ sym: SYM, side: 'BUY', qty: 0.01, price: onTick(mid * 0.95) }),
        ],
        () => undefined,
        (ctx, mid) => ctx.order.limit({ sym: SYM, side: 'BUY', qty: 0.01, price: onTick(mid * 0.95) }),
      ],
      { limits: { maxOpenOrders: 2 } },
    );
    expect(deniedIntents(result)).toEqual(['placeOrder maxOpenOrders', 'placeOrder maxOpenOrders']);
    expect([...(result.denials ?? [])][1]?.reason).toContain('(1 of them algo orders)');
  });

  it('counts the trailing stops Keel holds: six placed in one hook against maxOpenOrders 2', async () => {
    const result = await scriptedBacktest(
      session.path,
      [
        (ctx) =>
          Array.from({ length: 6 }, () =>
            ctx.order.trailingStop({
              sym: SYM,
              side: 'SELL',
              qty: 0.01,
              offset: { bps: 500 },
              reduceOnly: false,
            }),
          ),
      ],
      { limits: { maxOpenOrders: 2 } },
    );
    expect(deniedIntents(result)).toEqual(Array(4).fill('placeOrder maxOpenOrders'));
  });
});
