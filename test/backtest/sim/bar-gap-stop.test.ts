import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { aBar, aMarket, anAlgo, aSim, BTC } from '../../kit/sim-builders.ts';

// An algo order sent on a bar's close arrives after the next bar's open (latency); when that open
// is already through its trigger it fires at the open price, but not before it existed.
describe('bars: a stop placed on a close that the next bar opens through', () => {
  const latency = { orderEntry: { fixedMs: 10, jitterMs: 0 }, marketData: { fixedMs: 5, jitterMs: 0 } };

  it('stamps the fill no earlier than the stop arrived, and the stop TRIGGERED after its NEW', () => {
    const t = aSim({ fillModel: 'bar', latency });
    t.sim.onMarket(aBar(60_000, 99, 101, 98, 100));
    t.send(aMarket('m', 'BUY', '1'));
    t.sim.onMarket(aBar(120_000, 100, 101, 99, 100));
    t.sim.advanceTo(120_005); // sent on the close, arrives at 120 015
    t.send(
      anAlgo('stop', {
        side: 'SELL',
        qty: D('1'),
        conditionType: 'LTE',
        triggerPrice: D('98'),
        reduceOnly: true,
      }),
    );
    t.sim.onMarket(aBar(180_000, 95, 96, 94, 95));
    const exec = t
      .of('execution')
      .map((e) => e.execution)
      .find((e) => e.clientOrderId === 'stop-trig');
    expect(exec?.price.toFixed()).toBe('95');
    expect(exec?.timestamp).toBe(120_015);
    const states = t.of('algoOrder').map((e) => `${e.algoOrder.state}@${e.algoOrder.updateAt}`);
    expect(states).toEqual(['NEW@120015', 'TRIGGERED@120015']);
  });

  it('a stop replaced on the close keeps its updates in time order', () => {
    const t = aSim({ fillModel: 'bar', latency });
    t.sim.onMarket(aBar(60_000, 99, 101, 98, 100));
    t.send(aMarket('m', 'BUY', '1'));
    t.send(
      anAlgo('stop', {
        side: 'SELL',
        qty: D('1'),
        conditionType: 'LTE',
        triggerPrice: D('90'),
        reduceOnly: true,
      }),
    );
    t.sim.onMarket(aBar(120_000, 100, 101, 99, 100));
    t.sim.advanceTo(120_005);
    t.send({ kind: 'replaceAlgoOrder', ref: 'r1', target: 'stop', sym: BTC, triggerPrice: D('98') });
    t.sim.onMarket(aBar(180_000, 95, 96, 94, 95));
    const times = t.of('algoOrder').map((e) => e.algoOrder.updateAt);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(t.of('algoOrder').at(-1)?.algoOrder.state).toBe('TRIGGERED');
    expect(t.of('algoOrder').at(-1)?.algoOrder.updateAt).toBe(120_015);
  });
});
