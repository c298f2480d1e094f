import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { aLimit, aMarket, anAlgo, aQuote, aSim, aTrade, BTC, fillLines } from '../../kit/sim-builders.ts';

const SL = { triggerPrice: D('90'), triggerType: 'LastPrice' as const, price: D('0') };
const TP = { triggerPrice: D('110'), triggerType: 'LastPrice' as const, price: D('0') };

describe('sim venue: tp / sl attachments live as long as their position', () => {
  it('close position cancels the tp / sl of the position it closes, so they do not fire against the next one', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 100, 50, 100.1, 50));
    t.send(aMarket('p1', 'BUY', '1', { sl: SL, tp: TP }));
    t.sim.advanceTo(2);
    t.send({ kind: 'closePosition', ref: 'close', sym: BTC, positionSide: 'NONE' });
    t.sim.advanceTo(3);
    expect(t.of('algoOrder').map((e) => [e.algoOrder.clientAlgoOrderId, e.algoOrder.state])).toEqual([
      ['p1-tp', 'NEW'],
      ['p1-sl', 'NEW'],
      ['p1-tp', 'CANCELLED'],
      ['p1-sl', 'CANCELLED'],
    ]);
    t.send(aMarket('p2', 'BUY', '1'));
    t.sim.advanceTo(4);
    t.sim.onMarket(aTrade(5, 89, 5, 'SELL'));
    t.sim.onMarket(aQuote(6, 88.9, 50, 89, 50));
    expect(fillLines(t)).toEqual([
      'p1 BUY 1@100.1 TAKER',
      'SIM-C-5 SELL 1@100 TAKER',
      'p2 BUY 1@100.1 TAKER',
    ]);
  });

  it('close positions cancels the reduce-only algo orders on its syms too', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 100, 50, 100.1, 50));
    t.send(
      aMarket('p1', 'BUY', '1', { sl: SL }),
      anAlgo('stop', { side: 'SELL', conditionType: 'LTE', triggerPrice: D('95'), reduceOnly: true }),
    );
    t.sim.advanceTo(2);
    t.send({ kind: 'closePositions', ref: 'close', symList: [BTC] });
    t.sim.advanceTo(3);
    expect(
      t
        .of('algoOrder')
        .filter((e) => e.algoOrder.state === 'CANCELLED')
        .map((e) => e.algoOrder.clientAlgoOrderId)
        .sort(),
    ).toEqual(['p1-sl', 'stop']);
  });

  it('counts the reduce-only algo orders in the limit of what a close cancels first (401129)', () => {
    const t = aSim({ maxReduceOnlyOrdersOnClose: 1 });
    t.sim.onMarket(aQuote(1, 100, 50, 100.1, 50));
    t.send(aMarket('p1', 'BUY', '1', { sl: SL, tp: TP }));
    t.sim.advanceTo(2);
    t.send({ kind: 'closePosition', ref: 'close', sym: BTC, positionSide: 'NONE' });
    t.sim.advanceTo(3);
    expect(t.of('commandRejected').map((e) => [e.ref, e.code])).toEqual([['close', 401129]]);
  });

  it('cancels the tp / sl of a position an ordinary order closes, as that order fills', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 100, 50, 100.1, 50));
    t.send(aMarket('p1', 'BUY', '1', { sl: SL, tp: TP }));
    t.sim.advanceTo(2);
    t.send(aMarket('exit', 'SELL', '1'));
    t.sim.advanceTo(3);
    expect(t.of('algoOrder').map((e) => [e.algoOrder.clientAlgoOrderId, e.algoOrder.state, e.ts])).toEqual([
      ['p1-tp', 'NEW', 1],
      ['p1-sl', 'NEW', 1],
      ['p1-tp', 'CANCELLED', 2],
      ['p1-sl', 'CANCELLED', 2],
    ]);
    t.send(aMarket('p2', 'BUY', '1'));
    t.sim.advanceTo(4);
    t.sim.onMarket(aTrade(5, 89, 5, 'SELL'));
    t.sim.onMarket(aQuote(6, 88.9, 50, 89, 50));
    expect(fillLines(t).map((l) => l.split(' ')[0])).toEqual(['p1', 'exit', 'p2']);
  });

  it('cancels them when an order reverses the position, and keeps them while it only reduces it', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 100, 50, 100.1, 50));
    t.send(aMarket('p1', 'BUY', '2', { sl: SL }));
    t.sim.advanceTo(2);
    t.send(aMarket('part', 'SELL', '1'));
    t.sim.advanceTo(3);
    expect(t.of('algoOrder').at(-1)?.algoOrder.state).toBe('NEW');
    t.send(aMarket('flip', 'SELL', '2'));
    t.sim.advanceTo(4);
    expect(t.of('algoOrder').at(-1)?.algoOrder).toMatchObject({
      clientAlgoOrderId: 'p1-sl',
      state: 'CANCELLED',
    });
  });

  it('keeps the legs of every entry on a position that is still open', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 100, 50, 100.1, 50));
    t.send(
      aMarket('a', 'BUY', '1', { sl: SL }),
      aMarket('b', 'BUY', '1', { sl: { ...SL, triggerPrice: D('80') } }),
    );
    t.sim.advanceTo(2);
    t.sim.onMarket(aTrade(3, 89, 5, 'SELL'));
    t.sim.onMarket(aQuote(4, 88.9, 50, 89, 50));
    // a's stop sold its 1; b's stop still protects the 1 left
    expect(fillLines(t).map((l) => l.split(' ')[0])).toEqual(['a', 'b', 'a-sl-trig']);
    const states = t.of('algoOrder').map((e) => `${e.algoOrder.clientAlgoOrderId} ${e.algoOrder.state}`);
    expect(states).toEqual(['a-sl NEW', 'b-sl NEW', 'a-sl TRIGGERED']);
  });

  it('cancels, instead of firing, a leg whose position a part fill of a resting order closed', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 100, 50, 100.1, 50));
    t.send(aMarket('p1', 'BUY', '1', { sl: SL }), aLimit('sell', 'SELL', '3', '101'));
    t.sim.advanceTo(2);
    // a buyer takes 1 through 101: the SELL 3 fills 1 (flat) and rests with 2
    t.sim.onMarket(aTrade(3, 101.1, 1, 'BUY'));
    expect(fillLines(t)).toEqual(['p1 BUY 1@100.1 TAKER', 'sell SELL 1@101 MAKER']);
    t.sim.onMarket(aTrade(4, 89, 5, 'SELL'));
    expect(fillLines(t)).toHaveLength(2);
    expect(t.of('algoOrder').at(-1)?.algoOrder).toMatchObject({
      clientAlgoOrderId: 'p1-sl',
      state: 'CANCELLED',
    });
  });

  it('leaves a reduce-only algo order the strategy placed itself when the position goes flat: it may guard a later one', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 100, 50, 100.1, 50));
    t.send(
      aMarket('p1', 'BUY', '1'),
      anAlgo('stop', { side: 'SELL', conditionType: 'LTE', triggerPrice: D('95'), reduceOnly: true }),
    );
    t.sim.advanceTo(2);
    t.send(aMarket('exit', 'SELL', '1'));
    t.sim.advanceTo(3);
    expect(t.of('algoOrder').map((e) => e.algoOrder.state)).toEqual(['NEW']);
  });

  it('cancels a leg once its position was reversed and reversed back, before it fires into the new one', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(1, 100, 50, 100.1, 50));
    t.send(aMarket('p1', 'BUY', '1', { sl: SL }), aLimit('sell', 'SELL', '3', '101'));
    t.sim.advanceTo(2);
    t.sim.onMarket(aTrade(3, 101.1, 2, 'BUY')); // the SELL fills 2: long 1 -> short 1, resting with 1
    t.send(aMarket('back', 'BUY', '2')); // short 1 -> long 1
    t.sim.advanceTo(4);
    expect(fillLines(t).map((l) => l.split('@')[0])).toEqual(['p1 BUY 1', 'sell SELL 2', 'back BUY 2']);
    t.sim.onMarket(aTrade(5, 89, 5, 'SELL'));
    expect(fillLines(t)).toHaveLength(3);
  });

  it("closing one side in BOTH mode keeps the other side's stop, whose position stays open", () => {
    const t = aSim({ positionMode: 'BOTH' });
    t.sim.onMarket(aQuote(1, 100, 50, 100.1, 50));
    t.send(
      aMarket('l', 'BUY', '1', { positionSide: 'LONG' }),
      aMarket('s', 'SELL', '1', {
        positionSide: 'SHORT',
        sl: { triggerPrice: D('110'), triggerType: 'LastPrice', price: D('0') },
      }),
    );
    t.sim.advanceTo(2);
    t.send({ kind: 'closePosition', ref: 'closeLong', sym: BTC, positionSide: 'LONG' });
    t.sim.advanceTo(3);
    expect(t.of('algoOrder').map((e) => `${e.algoOrder.clientAlgoOrderId} ${e.algoOrder.state}`)).toEqual([
      's-sl NEW',
    ]);
  });
});
