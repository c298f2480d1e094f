import { describe, expect, it } from 'vitest';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aLimit, aMarket, aQuote, aSim, BTC } from '../../kit/sim-builders.ts';

describe('sim venue: close position(s)', () => {
  it('cancels open reduce-only orders on the sym first, then closes at market', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(0, 99.9, 10, 100, 10));
    t.send(
      aMarket('m', 'BUY', '2'),
      aLimit('tp', 'SELL', '1', '110', { reduceOnly: true }),
      aLimit('keep', 'BUY', '1', '90'),
    );
    t.send({ kind: 'closePosition', ref: 'close', sym: BTC, positionSide: 'NONE' });
    t.sim.advanceTo(1);
    const orders = t
      .of('order')
      .map((e) => [e.order.clientOrderId, e.order.orderState, e.order.cancelType ?? '']);
    expect(orders.slice(-3)).toEqual([
      ['tp', 'CANCELLED', 'CLOSE_POSITION'],
      ['close', 'NEW', ''],
      ['close', 'FILLED', ''],
    ]);
    const close = t.of('execution').at(-1)?.execution;
    // bought 2 at 100, sold 2 at the bid 99.9: -0.2
    expect([close?.side, close?.quantity.toFixed(), close?.price.toFixed(), close?.rpnl.toFixed()]).toEqual([
      'SELL',
      '2',
      '99.9',
      '-0.2',
    ]);
    expect(t.of('position').at(-1)?.position.positionQty.toFixed()).toBe('0');
    // the resting non-reduce-only order is left on the book
    expect(t.of('order').findLast((e) => e.order.clientOrderId === 'keep')?.order.orderState).toBe('OPEN');
  });

  it('refuses to close a flat position with 401097', () => {
    const t = aSim();
    t.send({ kind: 'closePosition', ref: 'close', sym: BTC, positionSide: 'NONE' });
    t.sim.advanceTo(1);
    expect(t.of('commandRejected').map((e) => e.code)).toEqual([401097]);
  });

  it('rejects a symList of more than 20 syms with 401129', () => {
    const syms = Array.from({ length: 21 }, (_, i) => `BINANCE_PERP_C${i}_USDT`);
    const t = aSim({ instruments: syms.map((sym) => anInstrument(sym)) });
    t.send({ kind: 'closePositions', ref: 'all', symList: syms });
    t.send({ kind: 'closePositions', ref: 'twenty', symList: syms.slice(0, 20) });
    t.sim.advanceTo(1);
    expect(t.of('commandRejected').map((e) => [e.ref, e.code])).toEqual([
      ['all', 401129],
      ['twenty', 401097],
    ]);
  });

  it('rejects with 401129 when the reduce-only open orders across the syms exceed the limit', () => {
    const t = aSim({ maxReduceOnlyOrdersOnClose: 1 });
    t.sim.onMarket(aQuote(0, 99.9, 10, 100, 10));
    t.send(
      aMarket('m', 'BUY', '2'),
      aLimit('r1', 'SELL', '1', '110', { reduceOnly: true }),
      aLimit('r2', 'SELL', '1', '111', { reduceOnly: true }),
    );
    t.send({ kind: 'closePositions', ref: 'c', symList: [BTC] });
    t.sim.advanceTo(1);
    expect(t.of('commandRejected').map((e) => [e.ref, e.code])).toEqual([['c', 401129]]);
    expect(t.of('position').at(-1)?.position.positionQty.toFixed()).toBe('2');
  });

  it('closes both legs in BOTH mode', () => {
    const t = aSim({ positionMode: 'BOTH' });
    t.sim.onMarket(aQuote(0, 99.9, 10, 100, 10));
    t.send(
      aMarket('l', 'BUY', '1', { positionSide: 'LONG' }),
      aMarket('s', 'SELL', '3', { positionSide: 'SHORT' }),
    );
    t.send({ kind: 'closePositions', ref: 'c', symList: [BTC] });
    t.sim.advanceTo(1);
    const closes = t
      .of('execution')
      .slice(2)
      .map((e) => [
        e.execution.clientOrderId,
        e.execution.side,
        e.execution.positionSide,
        e.execution.quantity.toFixed(),
      ]);
    expect(closes).toEqual([
      ['c-1', 'SELL', 'LONG', '1'],
      ['c-2', 'BUY', 'SHORT', '3'],
    ]);
  });

  it('closes both legs of the sym in BOTH mode when closePosition names positionSide NONE, and one leg when it names it', () => {
    const t = aSim({ positionMode: 'BOTH' });
    t.sim.onMarket(aQuote(0, 99.9, 10, 100, 10));
    t.send(
      aMarket('l', 'BUY', '1', { positionSide: 'LONG' }),
      aMarket('s', 'SELL', '3', { positionSide: 'SHORT' }),
      aMarket('l2', 'BUY', '2', { positionSide: 'LONG' }),
    );
    t.send({ kind: 'closePosition', ref: 'short', sym: BTC, positionSide: 'SHORT' });
    t.send({ kind: 'closePosition', ref: 'all', sym: BTC, positionSide: 'NONE' });
    t.sim.advanceTo(1);
    expect(t.of('commandRejected')).toEqual([]);
    const closes = t
      .of('execution')
      .slice(3)
      .map(
        (e) =>
          `${e.execution.clientOrderId} ${e.execution.side} ${e.execution.positionSide} ${e.execution.quantity.toFixed()}`,
      );
    expect(closes).toEqual(['short BUY SHORT 3', 'all SELL LONG 3']);
  });
});
