import { describe, expect, it } from 'vitest';
import { D, type PositionMode } from '../../../core/model/index.ts';
import {
  aLimit,
  aMark,
  aMarket,
  aQuote,
  aSim,
  aTrade,
  BTC,
  fillLines,
  type SimUnderTest,
} from '../../kit/sim-builders.ts';

/** A sim long 2 BTC bought at 100 (ask 100, bid 99.9), at time 1. */
function longTwo(positionMode: PositionMode = 'NET'): SimUnderTest {
  const t = aSim({ positionMode });
  t.sim.onMarket(aQuote(0, 99.9, 50, 100, 50));
  t.sim.onMarket(aMark(0, 100));
  t.send(aMarket('open', 'BUY', '2', { positionSide: positionMode === 'NET' ? 'NONE' : 'LONG' }));
  t.sim.advanceTo(1);
  return t;
}

/** Each update of one order as `state qty executed action cancelType|amendType`. */
function updatesOf(t: SimUnderTest, ref: string): string[] {
  return t
    .of('order')
    .filter((e) => e.order.clientOrderId === ref)
    .map(({ order: o }) =>
      [
        o.orderState,
        o.orderQty.toFixed(),
        o.executedQty.toFixed(),
        o.action,
        o.cancelType ?? o.amendType ?? '',
      ]
        .join(' ')
        .trim(),
    );
}

async function positionQty(t: SimUnderTest): Promise<string[]> {
  return (await t.sim.snapshot()).positions.map((p) => p.positionQty.toFixed());
}

describe('reduce-only orders capped by their position', () => {
  it('cancels a resting reduce-only order when a plain order closes its position, so it never sells a later one', async () => {
    const t = longTwo();
    t.send(aLimit('tp', 'SELL', '2', '110', { reduceOnly: true }));
    t.sim.advanceTo(2);
    t.send(aMarket('flat', 'SELL', '2'));
    t.sim.advanceTo(3);
    expect(updatesOf(t, 'tp')).toEqual([
      'NEW 2 0 PLACE',
      'OPEN 2 0 PLACE',
      'CANCELLED 2 0 CANCEL_COMPLETED REDUCE_ONLY',
    ]);
    t.send(aMarket('reopen', 'BUY', '4'));
    t.sim.advanceTo(4);
    t.sim.onMarket(aTrade(5, 111, 10, 'BUY'));
    // Before: the stale SELL 2 @110 sold half of the new long 4.
    expect(fillLines(t)).toEqual([
      'open BUY 2@100 TAKER',
      'flat SELL 2@99.9 TAKER',
      'reopen BUY 4@100 TAKER',
    ]);
    expect(await positionQty(t)).toEqual(['4']);
  });

  it.each(['NET', 'BOTH'] as const)(
    'trims it to what is left when the position shrinks, then ends it with the position (%s mode)',
    async (mode) => {
      const positionSide = mode === 'NET' ? 'NONE' : 'LONG';
      const t = longTwo(mode);
      t.send(aLimit('ro', 'SELL', '2', '110', { reduceOnly: true, positionSide }));
      t.sim.advanceTo(2);
      t.send(aMarket('s', 'SELL', '1', { reduceOnly: true, positionSide }));
      t.sim.advanceTo(3);
      // Long 2 -> 1: the resting SELL 2 is trimmed to the 1 left.
      const trimmed = t
        .of('order')
        .find((e) => e.order.clientOrderId === 'ro' && e.order.amendType === 'QTY');
      expect(trimmed?.order.actionMsg).toBe('reduce-only qty trimmed to the position size 1');
      t.sim.onMarket(aTrade(5, 111, 10, 'BUY'));
      t.sim.onMarket(aQuote(6, 99.9, 50, 100, 50));
      t.send(aMarket('b3', 'BUY', '4', { positionSide }));
      t.sim.advanceTo(7);
      t.sim.onMarket(aTrade(8, 111, 10, 'BUY'));
      expect(updatesOf(t, 'ro')).toEqual([
        'NEW 2 0 PLACE',
        'OPEN 2 0 PLACE',
        'OPEN 1 0 AMEND_COMPLETED QTY',
        'FILLED 1 1 FILL QTY',
      ]);
      // It sold the 1 left at 110 and nothing of the later long 4.
      expect(fillLines(t).slice(2)).toEqual(['ro SELL 1@110 MAKER', 'b3 BUY 4@100 TAKER']);
      expect(await positionQty(t)).toEqual(['4']);
    },
  );

  it('trims the most recently placed first, keeping the older ones whole', async () => {
    const t = longTwo();
    t.send(aMarket('more', 'BUY', '2'));
    t.send(aLimit('old', 'SELL', '2', '120', { reduceOnly: true }));
    t.send(aLimit('new', 'SELL', '2', '110', { reduceOnly: true }));
    t.sim.advanceTo(2);
    // Long 4 -> 3: old keeps its 2, new gets the 1 left; long 3 -> 1: old is trimmed to the 1 left
    // and new, placed after it, has nothing left.
    t.send(aMarket('cut', 'SELL', '1'));
    t.sim.advanceTo(3);
    expect(updatesOf(t, 'new').slice(2)).toEqual(['OPEN 1 0 AMEND_COMPLETED QTY']);
    expect(t.of('order').at(-1)?.order.actionMsg).toBe(
      'reduce-only qty trimmed to 1: the position has 3 left to reduce, older reduce-only orders hold 2',
    );
    t.send(aMarket('cut2', 'SELL', '2'));
    t.sim.advanceTo(4);
    expect(updatesOf(t, 'new').at(-1)).toBe('CANCELLED 1 0 CANCEL_COMPLETED REDUCE_ONLY');
    expect(updatesOf(t, 'old').at(-1)).toBe('OPEN 1 0 AMEND_COMPLETED QTY');
    expect(await positionQty(t)).toEqual(['1']);
  });

  it('trims a modify raising a reduce-only order past its position to the position', async () => {
    const t = longTwo();
    t.send(aLimit('ro', 'SELL', '2', '110', { reduceOnly: true }));
    t.sim.advanceTo(2);
    t.send({ kind: 'modifyOrder', ref: 'm', target: 'ro', sym: BTC, qty: D('5') });
    t.sim.advanceTo(3);
    t.sim.onMarket(aTrade(5, 111, 10, 'BUY'));
    // Before: qty 5 on long 2, filled 2 and stayed open to sell 3 of a later position.
    expect(updatesOf(t, 'ro').slice(2)).toEqual(['OPEN 2 0 AMEND_COMPLETED QTY', 'FILLED 2 2 FILL QTY']);
    expect(t.of('order').find((e) => e.order.action === 'AMEND_COMPLETED')?.order.actionMsg).toBe(
      'reduce-only qty trimmed to the position size 2',
    );
    expect(await positionQty(t)).toEqual([]);
  });
});
