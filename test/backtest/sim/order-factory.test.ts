import { afterEach, describe, expect, it } from 'vitest';
import { aLimit, aQuote, aSim } from '../../kit/sim-builders.ts';

const mapSet = Map.prototype.set;

describe('sim createOrder: what an order is kept by', () => {
  afterEach(() => {
    Map.prototype.set = mapSet;
  });

  it('keeps a new order by its clientOrderId only, writing no map entry by the order id nothing reads', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 99, 5, 101, 5));
    const keys: unknown[] = [];
    Map.prototype.set = function (this: Map<unknown, unknown>, key: unknown, value: unknown) {
      keys.push(key);
      return mapSet.call(this, key, value);
    };
    t.send(aLimit('b1', 'BUY', '1', '95'), aLimit('b2', 'BUY', '1', '94'));
    t.sim.advanceTo(2);
    Map.prototype.set = mapSet;
    const ids = t.of('order').map((e) => e.order.orderId);
    expect(new Set(ids).size).toBe(2);
    expect(keys.filter((key) => ids.includes(key as string))).toEqual([]);
    expect(keys).toContain('b1');
    expect(keys).toContain('b2');
  });
});
