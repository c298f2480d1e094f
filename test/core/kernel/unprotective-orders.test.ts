import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UnprotectiveOrders } from '../../../core/kernel/unprotective-orders.ts';
import { D, type Dec, type PositionSide } from '../../../core/model/index.ts';
import { anAlgoOrder } from '../../kit/algo-order-builders.ts';
import { anOrder } from '../../kit/order-builders.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';

/** A judge over fixed positions, `sym|positionSide` -> signed qty. */
const judgeOver = (positions: Record<string, string>) =>
  new UnprotectiveOrders((sym: string, leg: PositionSide): Dec => D(positions[`${sym}|${leg}`] ?? '0'));

describe('UnprotectiveOrders: which orders the sweep of a strategy halted by a fault cancels', () => {
  it('keeps the reduce-only orders, hedge closing orders and tp / sl algo orders of an open position', () => {
    const judge = judgeOver({ [`${BTC}|NONE`]: '1', [`${BTC}|LONG`]: '2', [`${BTC}|SHORT`]: '-2' });
    expect(judge.order(anOrder({ side: 'SELL', reduceOnly: true }))).toBe(false);
    expect(judge.order(anOrder({ side: 'SELL', positionSide: 'LONG' }))).toBe(false);
    expect(judge.order(anOrder({ side: 'BUY', positionSide: 'SHORT' }))).toBe(false);
    // An entry's stop-loss attachment, and a reduce-only stop placed on its own.
    expect(judge.algoOrder(anAlgoOrder({ algoOrderType: 'TP_SL', attachedOrderId: 'o-1' }))).toBe(false);
    expect(judge.algoOrder(anAlgoOrder({ algoOrderType: 'TP_SL', reduceOnly: false }))).toBe(false);
    expect(judge.algoOrder(anAlgoOrder({ reduceOnly: true }))).toBe(false);
  });

  it('cancels every order that is not reduce-only, even one against the position', () => {
    const judge = judgeOver({ [`${BTC}|NONE`]: '1' });
    expect(judge.order(anOrder({ side: 'BUY' }))).toBe(true);
    // A plain take-profit limit: were the stop-loss to close the long first, it would open a short.
    expect(judge.order(anOrder({ side: 'SELL', orderQty: D('1') }))).toBe(true);
    expect(judge.algoOrder(anAlgoOrder({ side: 'SELL', reduceOnly: false }))).toBe(true);
    expect(judge.algoOrder(anAlgoOrder({ side: 'BUY', reduceOnly: false }))).toBe(true);
  });

  it('cancels the protective orders of a flat leg, or of a leg open on the side they do not reduce', () => {
    const judge = judgeOver({ [`${BTC}|NONE`]: '-1' });
    expect(judge.algoOrder(anAlgoOrder({ side: 'SELL', algoOrderType: 'TP_SL' }))).toBe(true);
    expect(judge.order(anOrder({ side: 'SELL', reduceOnly: true }))).toBe(true);
    expect(judge.order(anOrder({ side: 'SELL', positionSide: 'LONG' }))).toBe(true);
    expect(judge.order(anOrder({ side: 'SELL', reduceOnly: true, sym: 'BINANCE_PERP_ETH_USDT' }))).toBe(true);
  });

  it('keeps exactly the protective orders that trade against an open position on their leg', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -5, max: 5 }),
        fc.constantFrom('BUY' as const, 'SELL' as const),
        fc.boolean(),
        fc.constantFrom('TRIGGER' as const, 'TP_SL' as const),
        (position, side, reduceOnly, algoOrderType) => {
          const judge = judgeOver({ [`${BTC}|NONE`]: String(position) });
          const against = side === 'BUY' ? position < 0 : position > 0;
          expect(judge.order(anOrder({ side, reduceOnly }))).toBe(!(reduceOnly && against));
          const protective = reduceOnly || algoOrderType === 'TP_SL';
          expect(judge.algoOrder(anAlgoOrder({ side, reduceOnly, algoOrderType }))).toBe(
            !(protective && against),
          );
        },
      ),
    );
  });
});
