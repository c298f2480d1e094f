import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RiskAddingOrders } from '../../../core/kernel/risk-adding-orders.ts';
import { D, type Dec, type PositionSide } from '../../../core/model/index.ts';
import { anAlgoOrder } from '../../kit/algo-order-builders.ts';
import { anOrder } from '../../kit/order-builders.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';

/** A judge over fixed positions, `sym|positionSide` -> signed qty. */
const judgeOver = (positions: Record<string, string>) =>
  new RiskAddingOrders((sym: string, leg: PositionSide): Dec => D(positions[`${sym}|${leg}`] ?? '0'));

describe('RiskAddingOrders: which orders a trip to REDUCING cancels', () => {
  it('keeps reduce-only orders, hedge legs’ closing orders and take-profit / stop-loss algo orders', () => {
    const judge = judgeOver({});
    expect(judge.order(anOrder({ side: 'SELL', reduceOnly: true }))).toBe(false);
    expect(judge.order(anOrder({ side: 'SELL', positionSide: 'LONG' }))).toBe(false);
    expect(judge.order(anOrder({ side: 'BUY', positionSide: 'SHORT' }))).toBe(false);
    expect(judge.algoOrder(anAlgoOrder({ reduceOnly: false, algoOrderType: 'TP_SL' }))).toBe(false);
    expect(judge.algoOrder(anAlgoOrder({ reduceOnly: true }))).toBe(false);
  });

  it('cancels what opens or grows a position, flat or not', () => {
    const judge = judgeOver({ [`${BTC}|NONE`]: '1', [`${BTC}|LONG`]: '1' });
    expect(judge.order(anOrder({ side: 'BUY' }))).toBe(true);
    expect(judge.order(anOrder({ side: 'BUY', positionSide: 'LONG' }))).toBe(true);
    expect(judge.order(anOrder({ side: 'SELL', sym: 'BINANCE_PERP_ETH_USDT' }))).toBe(true);
    expect(judge.algoOrder(anAlgoOrder({ side: 'BUY', reduceOnly: false }))).toBe(true);
  });

  it('keeps plain orders against the position while they fit in it together, and algo orders apart', () => {
    const judge = judgeOver({ [`${BTC}|NONE`]: '-1' });
    expect(judge.order(anOrder({ side: 'BUY', orderQty: D('0.6') }))).toBe(false);
    // A ladder: together with the 0.6 kept, 0.5 more would flip the short into a long.
    expect(judge.order(anOrder({ side: 'BUY', orderQty: D('0.5') }))).toBe(true);
    expect(judge.order(anOrder({ side: 'BUY', orderQty: D('0.4') }))).toBe(false);
    // A bracket's stop-loss trigger is the alternative to the limits: it has the whole position.
    expect(judge.algoOrder(anAlgoOrder({ side: 'BUY', reduceOnly: false, qty: D('1') }))).toBe(false);
    expect(judge.algoOrder(anAlgoOrder({ side: 'BUY', reduceOnly: false, qty: D('0.001') }))).toBe(true);
  });

  it('keeps both exits of a bracket, each the size of the position', () => {
    const judge = judgeOver({ [`${BTC}|NONE`]: '1' });
    expect(judge.order(anOrder({ side: 'SELL', orderQty: D('1') }))).toBe(false);
    expect(judge.algoOrder(anAlgoOrder({ side: 'SELL', reduceOnly: false, qty: D('1') }))).toBe(false);
    expect(judge.order(anOrder({ side: 'SELL', orderQty: D('1.01') }))).toBe(true);
  });

  it('counts what a partly filled order has left, and cancels a quote-sized order not sized yet', () => {
    const judge = judgeOver({ [`${BTC}|NONE`]: '1' });
    expect(judge.order(anOrder({ side: 'SELL', orderQty: D('3'), executedQty: D('2.5') }))).toBe(false);
    expect(
      judge.order(anOrder({ side: 'SELL', orderType: 'MARKET', orderQty: D('0'), quoteOrderQty: D('10') })),
    ).toBe(true);
  });

  it('never keeps orders of one kind that together could take a leg past flat, or grow it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -50, max: 50 }),
        fc.array(fc.record({ buy: fc.boolean(), qty: fc.integer({ min: 1, max: 30 }), algo: fc.boolean() })),
        (position, orders) => {
          const judge = judgeOver({ [`${BTC}|NONE`]: String(position) });
          const kept = { plain: 0, algo: 0 };
          for (const o of orders) {
            const side = o.buy ? 'BUY' : 'SELL';
            const adds = o.algo
              ? judge.algoOrder(anAlgoOrder({ side, qty: D(o.qty), reduceOnly: false }))
              : judge.order(anOrder({ side, orderQty: D(o.qty) }));
            const kind = o.algo ? 'algo' : 'plain';
            // Kept exactly when against the position and within what its kind left of it.
            const against = o.buy ? position < 0 : position > 0;
            const fits = against && kept[kind] + o.qty <= Math.abs(position);
            expect(adds).toBe(!fits);
            if (fits) kept[kind] += o.qty;
          }
          expect(Math.max(kept.plain, kept.algo)).toBeLessThanOrEqual(Math.abs(position));
        },
      ),
    );
  });
});
