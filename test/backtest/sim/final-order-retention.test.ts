import { describe, expect, it } from 'vitest';
import { RETAIN_FINAL_ORDERS, retireFinalAlgo } from '../../../backtest/sim/final-order-retention.ts';
import type { SimAlgo, SimState } from '../../../backtest/sim/sim-state.ts';
import { aLimit, anAlgo, aQuote, aSim, BTC } from '../../kit/sim-builders.ts';

/** The sim keeps this many final orders whole (RETAIN_FINAL_ORDERS in backtest/sim/final-order-retention.ts). */
const RETAINED = 10_000;

describe('sim venue: final orders beyond the retention bound', () => {
  it('forgets the oldest final order but still refuses its reference (406010) and calls it final (401058)', async () => {
    const t = aSim();
    t.sim.onMarket(aQuote(0, 99, 5, 100, 5));
    // An IOC bid below the ask cannot fill: each order is cancelled at once, so it is final.
    for (let i = 0; i <= RETAINED; i++) t.send(aLimit(`r${i}`, 'BUY', '1', '90', { timeInForce: 'IOC' }));
    t.sim.advanceTo(1);
    expect(t.of('order').filter((e) => e.order.orderState === 'CANCELLED')).toHaveLength(RETAINED + 1);

    expect(await t.sim.lookupOrder(BTC, 'r0')).toBeUndefined();
    expect((await t.sim.lookupOrder(BTC, 'r1'))?.orderState).toBe('CANCELLED');

    t.send(aLimit('r0', 'BUY', '1', '100'));
    t.send({ kind: 'cancelOrder', ref: 'c0', target: 'r0', sym: BTC });
    t.send({ kind: 'cancelOrder', ref: 'c1', target: 'never', sym: BTC });
    t.sim.advanceTo(2);
    expect(t.of('commandRejected').map((e) => [e.ref, e.code])).toEqual([
      ['r0', 406010],
      ['c0', 401058],
      ['c1', 401018],
    ]);
    expect(t.of('order').filter((e) => e.order.clientOrderId === 'r0')).toHaveLength(2);
  });
});

describe('sim venue: a final order kept', () => {
  it('answers a lookup with what its final update said, in a copy of its own', async () => {
    const t = aSim();
    t.sim.onMarket(aQuote(0, 99, 5, 100, 5));
    t.send(aLimit('gone', 'BUY', '1', '90', { timeInForce: 'IOC' }));
    t.sim.advanceTo(1);
    const published = t
      .of('order')
      .filter((e) => e.order.clientOrderId === 'gone')
      .at(-1)?.order;
    const looked = await t.sim.lookupOrder(BTC, 'gone');
    expect(published?.orderState).toBe('CANCELLED');
    expect(looked).toEqual(published);
    expect(looked).not.toBe(published);
    expect(await t.sim.lookupOrder('OTHER_SYM', 'gone')).toBeUndefined();
  });
});

describe('sim venue: final algo orders beyond the retention bound', () => {
  it('forgets the oldest whole, but still refuses its reference and calls it final on a cancel', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(0, 99, 5, 100, 5));
    for (let i = 0; i <= RETAINED; i++) {
      t.send(anAlgo(`a${i}`), { kind: 'cancelAlgoOrder', ref: `x${i}`, target: `a${i}`, sym: BTC });
    }
    t.sim.advanceTo(1);
    expect(t.of('algoOrder').filter((e) => e.algoOrder.state === 'CANCELLED')).toHaveLength(RETAINED + 1);

    t.send(anAlgo('a0'));
    t.send({ kind: 'cancelAlgoOrder', ref: 'c0', target: 'a0', sym: BTC });
    t.send({ kind: 'cancelAlgoOrder', ref: 'c1', target: 'never', sym: BTC });
    t.sim.advanceTo(2);
    expect(t.of('commandRejected').map((e) => [e.ref, e.code])).toEqual([
      ['a0', 406010],
      ['c0', 401058],
      ['c1', 401018],
    ]);
  });
});

describe('retireFinalAlgo', () => {
  it('keeps at most the retention bound of final algo orders whole, and the rest as their reference and state', () => {
    const state = {
      finalAlgos: { items: [], head: 0 },
      algosByRef: new Map(),
      forgottenAlgoStates: new Map(),
    } as unknown as SimState;
    const total = 3 * RETAIN_FINAL_ORDERS + 7;
    for (let i = 0; i < total; i++) {
      const algo = { clientAlgoOrderId: `a${i}`, state: 'CANCELLED' } as SimAlgo;
      state.algosByRef.set(algo.clientAlgoOrderId, algo);
      retireFinalAlgo(state, algo);
    }
    expect(state.algosByRef.size).toBe(RETAIN_FINAL_ORDERS);
    expect(state.finalAlgos.items.length).toBeLessThanOrEqual(2 * RETAIN_FINAL_ORDERS);
    expect(state.forgottenAlgoStates.get('a0')).toBe('CANCELLED');
    expect(state.algosByRef.has(`a${total - 1}`)).toBe(true);
  });
});
