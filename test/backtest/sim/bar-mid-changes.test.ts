import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { aBar, aLimit, aMarket, anAlgo, aSim, BTC, type SimUnderTest } from '../../kit/sim-builders.ts';

// aBar(ts, ...) is the 1m bar [ts - 60 000, ts), received at ts; zero latency, so a bar's cutoff is
// its open (the previous bar's receipt): a change at 150 000 arrives inside [120 000, 180 000).

/** Each fill as `ref side qty@price execType at <ts>`. */
function fillsAt(t: SimUnderTest): string[] {
  return t
    .of('execution')
    .map(
      ({ execution: e }) =>
        `${e.clientOrderId} ${e.side} ${e.quantity.toFixed()}@${e.price.toFixed()} ${e.execType} at ${e.timestamp}`,
    );
}

/** Each refused command as `ref code`. */
function refusals(t: SimUnderTest): string[] {
  return t.of('commandRejected').map((e) => `${e.ref} ${e.code}`);
}

/** A bar sim long 1 from the open of [60 000, 120 000) at 100, with a stop-loss at 95; it is 120 000. */
function longWithStop(): SimUnderTest {
  const t = aSim({ fillModel: 'bar' });
  t.sim.onMarket(aBar(60_000, 100, 100, 100, 100));
  t.send(
    aMarket('p', 'BUY', '1'),
    anAlgo('s', { side: 'SELL', qty: D('1'), conditionType: 'LTE', triggerPrice: D('95'), reduceOnly: true }),
  );
  t.sim.onMarket(aBar(120_000, 100, 100, 99, 100));
  return t;
}

/** A bar sim with a resting BUY 1 @96 placed on the close of [0, 60 000); it is 120 000. */
function restingBid(): SimUnderTest {
  const t = aSim({ fillModel: 'bar' });
  t.sim.onMarket(aBar(60_000, 100, 100, 100, 100));
  t.send(aLimit('b', 'BUY', '1', '96'));
  t.sim.onMarket(aBar(120_000, 100, 100, 99, 100));
  return t;
}

describe('sim venue on bars: a cancel or amendment arriving inside a bar meets it on the old terms', () => {
  it('triggers a stop moved inside a bar that reached the old trigger, and refuses the move (401058)', () => {
    const t = longWithStop();
    t.sim.advanceTo(150_000);
    t.send({ kind: 'replaceAlgoOrder', ref: 'r1', target: 's', sym: BTC, triggerPrice: D('94.5') });
    t.sim.advanceTo(150_001);
    expect(t.of('algoOrder').at(-1)?.algoOrder.triggerPrice.toFixed()).toBe('95');
    // [120 000, 180 000) falls to 90: the stop at 95, working at its open, fires on the way down.
    t.sim.onMarket(aBar(180_000, 100, 100, 90, 96));
    t.sim.onMarket(aBar(240_000, 96, 99, 95.5, 98));
    expect(fillsAt(t)).toEqual(['p BUY 1@100 TAKER at 60000', 's-trig SELL 1@95 TAKER at 180000']);
    expect(refusals(t)).toEqual(['r1 401058']);
  });

  it('triggers a stop cancelled inside a bar that reached it, and refuses the cancel (401058)', () => {
    const t = longWithStop();
    t.sim.advanceTo(150_000);
    t.send({ kind: 'cancelAlgoOrder', ref: 'c1', target: 's', sym: BTC });
    t.sim.advanceTo(150_001);
    expect(t.of('algoOrder').map((e) => e.algoOrder.state)).toEqual(['NEW']);
    t.sim.onMarket(aBar(180_000, 100, 100, 90, 96));
    expect(fillsAt(t)).toEqual(['p BUY 1@100 TAKER at 60000', 's-trig SELL 1@95 TAKER at 180000']);
    expect(refusals(t)).toEqual(['c1 401058']);
  });

  it('fills a resting limit cancelled inside a bar that reached it, and refuses the cancel (401058)', () => {
    const t = restingBid();
    t.sim.advanceTo(150_000);
    t.send({ kind: 'cancelOrder', ref: 'c1', target: 'b', sym: BTC });
    t.sim.onMarket(aBar(180_000, 100, 100, 90, 96));
    expect(fillsAt(t)).toEqual(['b BUY 1@96 MAKER at 180000']);
    expect(refusals(t)).toEqual(['c1 401058']);
  });

  it('fills a limit moved away inside a bar at its old price when the bar reached it, and refuses the move (401058)', () => {
    const t = restingBid();
    t.sim.advanceTo(150_000);
    t.send({ kind: 'modifyOrder', ref: 'm1', target: 'b', sym: BTC, price: D('80') });
    t.sim.onMarket(aBar(180_000, 100, 100, 90, 96));
    expect(fillsAt(t)).toEqual(['b BUY 1@96 MAKER at 180000']);
    expect(refusals(t)).toEqual(['m1 401058']);
  });

  it('amends a limit moved towards the market once the bar is matched, when the bar missed the old price, and fills the new one from the next bar', () => {
    const t = restingBid();
    t.sim.advanceTo(150_000);
    t.send({ kind: 'modifyOrder', ref: 'm1', target: 'b', sym: BTC, price: D('99') });
    t.sim.advanceTo(150_001);
    expect(t.of('order').map((e) => e.order.action)).toEqual(['PLACE', 'PLACE']);
    // [120 000, 180 000) reaches 97: not the old 96; the new 99 came inside it and meets only the next bar.
    t.sim.onMarket(aBar(180_000, 100, 100, 97, 98));
    expect(fillsAt(t)).toEqual([]);
    const amended = t.of('order').at(-1)?.order;
    expect([amended?.action, amended?.limitPrice.toFixed(), amended?.updateAt]).toEqual([
      'AMEND_COMPLETED',
      '99',
      180_000,
    ]);
    t.sim.onMarket(aBar(240_000, 100, 100, 98.5, 99.5));
    expect(fillsAt(t)).toEqual(['b BUY 1@99 MAKER at 240000']);
    expect(refusals(t)).toEqual([]);
  });

  it('cancels a stop and a limit once the bar is matched when the bar reached neither', () => {
    const t = longWithStop();
    t.send(aLimit('b', 'BUY', '1', '96'));
    t.sim.advanceTo(150_000);
    t.send(
      { kind: 'cancelAlgoOrder', ref: 'c1', target: 's', sym: BTC },
      { kind: 'cancelOrder', ref: 'c2', target: 'b', sym: BTC },
    );
    t.sim.onMarket(aBar(180_000, 100, 100, 97, 98));
    t.sim.onMarket(aBar(240_000, 98, 98, 90, 91));
    expect(fillsAt(t)).toEqual(['p BUY 1@100 TAKER at 60000']);
    expect(t.of('algoOrder').at(-1)?.algoOrder.state).toBe('CANCELLED');
    expect(t.of('order').at(-1)?.order.action).toBe('CANCEL_COMPLETED');
    expect(t.of('order').at(-1)?.order.updateAt).toBe(180_000);
    expect(refusals(t)).toEqual([]);
  });

  it('carries out at once a change arriving before the bar opens, which meets the bar on its new terms', () => {
    const t = restingBid();
    t.send(aLimit('gone', 'BUY', '1', '95'));
    t.sim.advanceTo(120_000);
    // On the close of [60 000, 120 000): before [120 000, 180 000) opened.
    t.send(
      { kind: 'modifyOrder', ref: 'm1', target: 'b', sym: BTC, price: D('92') },
      { kind: 'cancelOrder', ref: 'c1', target: 'gone', sym: BTC },
    );
    t.sim.advanceTo(120_000);
    expect(
      t
        .of('order')
        .slice(-2)
        .map((e) => [e.order.action, e.order.updateAt]),
    ).toEqual([
      ['AMEND_COMPLETED', 120_000],
      ['CANCEL_COMPLETED', 120_000],
    ]);
    t.sim.onMarket(aBar(180_000, 100, 100, 90, 96));
    expect(fillsAt(t)).toEqual(['b BUY 1@92 MAKER at 180000']);
    expect(refusals(t)).toEqual([]);
  });
});
