import { describe, expect, it } from 'vitest';
import { aBar, aLimit, aMarket, aQuote, aSim, aTrade } from '../../kit/sim-builders.ts';

describe('sim venue: what a fill works out once', () => {
  it("fills a market order on bars at the mark's own Decimal, converted once for the fill and its views", () => {
    const t = aSim({ fillModel: 'bar' });
    t.sim.onMarket(aBar(60_000, 99, 101, 98, 100));
    t.send(aMarket('m1', 'BUY', '1'));
    t.sim.onMarket(aBar(120_000, 100.5, 103, 99, 102));
    const fill = t.of('execution')[0]?.execution;
    const position = t.of('position')[0]?.position;
    expect(fill?.price.toFixed()).toBe('100.5');
    expect(position?.markPrice).toBe(fill?.price);
  });

  it('reports the price of an order filled at one price, without dividing, as its average price', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
    t.send(aMarket('m', 'BUY', '10'));
    t.sim.advanceTo(1);
    const fill = t.of('execution')[0]?.execution;
    const filled = t.of('order').find((e) => e.order.orderState === 'FILLED')?.order;
    expect(filled?.executedAvgPrice).toBe(fill?.price);
  });

  it('reports amount / filled as the average price of an order filled at several prices', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 100.4, 5, 100.5, 0.3));
    t.send(aLimit('b1', 'BUY', '1', '101'));
    t.sim.onMarket(aQuote(2, 100.4, 5, 101.5, 1));
    t.sim.onMarket(aTrade(3, 100.9, 1, 'SELL'));
    const fills = t.of('execution').map((e) => [e.execution.quantity.toFixed(), e.execution.price.toFixed()]);
    expect(fills).toEqual([
      ['0.3', '100.5'],
      ['0.7', '101'],
    ]);
    const updates = t
      .of('order')
      .map((e) => e.order)
      .filter((o) => o.executedQty.gt(0));
    expect(updates.map((o) => [o.orderState, o.executedAvgPrice.toFixed()])).toEqual([
      ['PARTIALLY_FILLED', '100.5'],
      ['FILLED', '100.85'],
    ]);
    for (const order of updates)
      expect(order.executedAvgPrice.eq(order.executedAmount.div(order.executedQty))).toBe(true);
  });
});
