import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { barPath } from '../../../backtest/sim/bar-matching.ts';
import { D } from '../../../core/model/index.ts';
import { aBar, aLimit, aMarket, aSim } from '../../kit/sim-builders.ts';

describe('sim venue: bar fill model', () => {
  it('marks a position at the close of each bar that meets no order, as a replay of its path would leave it', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 50, max: 150 }), { minLength: 1, maxLength: 20 }), (closes) => {
        const t = aSim({ fillModel: 'bar' });
        t.sim.onMarket(aBar(60_000, 99, 101, 98, 100));
        t.send(aMarket('m1', 'BUY', '1'));
        t.sim.onMarket(aBar(120_000, 100, 101, 99, 100));
        const afterFill = t.sim.equity();
        closes.forEach((close, i) => {
          t.sim.onMarket(
            aBar(180_000 + i * 60_000, 100, Math.max(100, close) + 1, Math.min(100, close) - 1, close),
          );
          expect(t.sim.equity().toFixed()).toBe(afterFill.plus(close - 100).toFixed());
        });
      }),
      { numRuns: 50 },
    );
  });

  it('fills a market order at the next bar open', () => {
    const t = aSim({ fillModel: 'bar' });
    t.sim.onMarket(aBar(60_000, 99, 101, 98, 100));
    t.send(aMarket('m1', 'BUY', '1'));
    t.sim.onMarket(aBar(120_000, 100.5, 103, 99, 102));
    expect(t.of('execution').map((e) => [e.execution.price.toFixed(), e.execution.execType])).toEqual([
      ['100.5', 'TAKER'],
    ]);
  });

  it("stamps fills at the open at the bar's open time, or at the order's arrival when latency made it later, and fills inside the bar at its close", () => {
    const t = aSim({ fillModel: 'bar' });
    t.sim.onMarket(aBar(60_000, 99, 101, 98, 100));
    t.send(aMarket('m1', 'BUY', '1'), aLimit('b1', 'BUY', '1', '98.5'));
    t.sim.onMarket(aBar(120_000, 100.5, 103, 98, 102));
    const late = aSim({
      fillModel: 'bar',
      latency: { orderEntry: { fixedMs: 250, jitterMs: 0 }, marketData: { fixedMs: 0, jitterMs: 0 } },
    });
    late.sim.onMarket(aBar(60_000, 99, 101, 98, 100));
    late.send(aMarket('m2', 'BUY', '1'));
    late.sim.onMarket(aBar(120_000, 100.5, 103, 98, 102));
    const stamps = [...t.of('execution'), ...late.of('execution')].map((e) => [
      e.execution.clientOrderId,
      e.execution.price.toFixed(),
      e.execution.timestamp,
    ]);
    expect(stamps).toEqual([
      ['m1', '100.5', 60_000],
      ['b1', '98.5', 120_000],
      ['m2', '100.5', 60_250],
    ]);
  });

  it('fills a limit inside the bar range at its price, and at the open when the bar opens through it', () => {
    const t = aSim({ fillModel: 'bar' });
    t.sim.onMarket(aBar(60_000, 99, 101, 98, 100));
    t.send(aLimit('b1', 'BUY', '1', '98.5'), aLimit('b2', 'BUY', '1', '101'));
    t.sim.onMarket(aBar(120_000, 100, 103, 97, 102));
    const fills = t.of('execution').map((e) => [e.execution.clientOrderId, e.execution.price.toFixed()]);
    expect(fills).toEqual([
      ['b2', '100'],
      ['b1', '98.5'],
    ]);
  });

  it('assumes the stop first when a take-profit and a stop-loss both trigger within one bar', () => {
    const t = aSim({ fillModel: 'bar' });
    t.sim.onMarket(aBar(60_000, 99, 101, 98, 100));
    t.send(
      aMarket('m1', 'BUY', '1', {
        tp: { triggerPrice: D('104'), triggerType: 'LastPrice', price: D('0') },
        sl: { triggerPrice: D('96'), triggerType: 'LastPrice', price: D('0') },
      }),
    );
    t.sim.onMarket(aBar(120_000, 100, 100.5, 99.5, 100));
    t.sim.onMarket(aBar(180_000, 100, 105, 95, 101));
    const fills = t.of('execution').map((e) => e.execution);
    expect(fills.map((f) => [f.side, f.price.toFixed(), f.rpnl.toFixed()])).toEqual([
      ['BUY', '100', '0'],
      ['SELL', '96', '-4'],
    ]);
    expect(
      t
        .of('algoOrder')
        .map((e) => [e.algoOrder.clientAlgoOrderId, e.algoOrder.state])
        .slice(-2),
    ).toEqual([
      ['m1-sl', 'TRIGGERED'],
      ['m1-tp', 'CANCELLED'],
    ]);
  });

  it('walks the adverse extreme first: low first when long, high first when short, nearer extreme when flat', () => {
    const bar = aBar(60_000, 100, 110, 95, 101);
    expect(barPath(bar, 1)).toEqual([100, 95, 110, 101]);
    expect(barPath(bar, -1)).toEqual([100, 110, 95, 101]);
    expect(barPath(bar, 0)).toEqual([100, 95, 110, 101]);
    expect(barPath(aBar(60_000, 100, 102, 90, 95), 0)).toEqual([100, 102, 90, 95]);
  });

  it('fills a SELL stop at the open when the bar gaps below its trigger', () => {
    const t = aSim({ fillModel: 'bar' });
    t.sim.onMarket(aBar(60_000, 99, 101, 98, 100));
    t.send(
      aMarket('m', 'BUY', '1'),
      aMarket('s', 'SELL', '1', { reduceOnly: true, condition: { code: 'SL', triggerPrice: D('97') } }),
    );
    t.sim.onMarket(aBar(120_000, 100, 101, 99, 100));
    t.sim.onMarket(aBar(180_000, 95, 96, 90, 91));
    const close = t.of('execution').at(-1)?.execution;
    // bought at 100, stop at 97 gapped: sold at the open 95, -5
    expect([close?.clientOrderId, close?.price.toFixed(), close?.rpnl.toFixed()]).toEqual(['s', '95', '-5']);
  });
});
