import { describe, expect, it } from 'vitest';
import { D, formatTimeToSend, LIQUIDATION_NODE_TYPES } from '../../../core/model/index.ts';
import {
  aHedgedBtcAccount,
  aMark,
  aMarket,
  aQuote,
  aSim,
  BTC,
  fillLines,
  type SimUnderTest,
} from '../../kit/sim-builders.ts';

const HOUR = 3_600_000;

/**
 * 200 USDT on the BTC perpetual (leverage 10, taker 5 bps, maintenance 0.5 %), orders arriving
 * 50 ms after they are sent. The mark is 100, but the book's ask has run away to 113 (a thin book):
 * BUY 15 at market passes the margin check at the mark (150 + fee 0.75 of 200) and fills at 113,
 * fee 0.8475, so equity is 200 - 0.8475 + 15 x (100 - 113) = 4.1525, below the maintenance
 * margin 15 x 100 x 0.5 % = 7.5. The next market event comes an hour later.
 */
function aThinBookAtMark100(): SimUnderTest {
  const t = aSim({
    startingBalances: { USDT: D('200') },
    latency: { orderEntry: { fixedMs: 50, jitterMs: 0 }, marketData: { fixedMs: 0, jitterMs: 0 } },
  });
  t.sim.onMarket(aMark(0, 100));
  t.sim.onMarket(aQuote(0, 99.9, 50, 113, 50));
  return t;
}

/** When each liquidation node and record was stamped. */
function liquidationTimes(t: SimUnderTest): Set<number> {
  return new Set([
    ...t.of('liquidationEvent').map((e) => e.record.timestamp),
    ...t.of('liquidationPosition').map((e) => e.record.timestamp),
  ]);
}

/** The liquidation as the hand-computed figures say: nodes, the close at the mark, its fee. */
function expectLiquidatedAt(t: SimUnderTest, ts: number, ref: string): void {
  const nodes = t.of('liquidationEvent').map((e) => e.record);
  expect(nodes.map((n) => n.nodeType)).toEqual([...LIQUIDATION_NODE_TYPES]);
  expect([nodes[0]?.equity.toFixed(), nodes[0]?.maintainMargin.toFixed()]).toEqual(['4.1525', '7.5']);
  expect(liquidationTimes(t)).toEqual(new Set([ts]));
  // closed at the mark 100, liquidation fee 1500 x 0.5 %
  expect(fillLines(t)).toEqual([`${ref} BUY 15@113 TAKER`, expect.stringMatching(/ SELL 15@100 TAKER$/)]);
  expect(t.of('execution').map((e) => e.execution.timestamp)).toEqual([ts, ts]);
  expect(t.sim.statement().map((f) => `${f.type} ${f.amount.toFixed()} ${f.ts}`)).toEqual([
    `LIQUIDATION_FEE -7.5 ${ts}`,
  ]);
  // 200 - 0.8475 - 195 realized - 7.5
  expect(t.sim.equity().toFixed()).toBe('-3.3475');
}

describe('sim venue: margin after a fill between market events', () => {
  it('liquidates at the arrival of a market order whose fill takes equity below maintenance, not at the next market event', () => {
    const t = aThinBookAtMark100();
    t.sim.advanceTo(10);
    t.send(aMarket('m', 'BUY', '15'));
    t.sim.onMarket(aMark(HOUR, 100));
    expectLiquidatedAt(t, 60, 'm');
  });

  it('liquidates at that arrival when no market event follows (advanceTo at the end of a replay)', () => {
    const t = aThinBookAtMark100();
    t.sim.advanceTo(10);
    t.send(aMarket('m', 'BUY', '15'));
    t.sim.advanceTo(HOUR);
    expectLiquidatedAt(t, 60, 'm');
  });

  it('liquidates when a TIME order released by its timer fills below maintenance, at its timeToSend', () => {
    const t = aThinBookAtMark100();
    const sendAt = HOUR / 2;
    t.send(aMarket('t', 'BUY', '15', { condition: { code: 'TIME', timeToSend: formatTimeToSend(sendAt) } }));
    t.sim.onMarket(aMark(HOUR, 100));
    expectLiquidatedAt(t, sendAt, 't');
  });

  it('liquidates at the arrival of a close whose fill at a crashed bid leaves the other leg below maintenance', () => {
    // LONG 1 and SHORT 0.5 at 1000 on 300 USDT (fees 0.75), mark 1000; the bid crashes to 703
    const t = aHedgedBtcAccount();
    t.sim.onMarket(aQuote(2, 703, 50, 1000, 50));
    t.send({ kind: 'closePosition', ref: 'c', sym: BTC, positionSide: 'LONG' });
    t.sim.onMarket(aMark(HOUR, 1000));
    // sold 1 at 703: realized -297, fee 0.3515; equity 299.25 - 297 - 0.3515 = 1.8985 against the
    // SHORT 0.5's maintenance margin 500 x 0.5 % = 2.5
    const nodes = t.of('liquidationEvent').map((e) => e.record);
    expect(nodes.map((n) => n.nodeType)).toEqual([...LIQUIDATION_NODE_TYPES]);
    expect([nodes[0]?.equity.toFixed(), nodes[0]?.maintainMargin.toFixed()]).toEqual(['1.8985', '2.5']);
    expect(liquidationTimes(t)).toEqual(new Set([2]));
    // the SHORT 0.5 bought back at the mark 1000, liquidation fee 2.5
    expect(fillLines(t).slice(2)).toEqual([
      'SIM-C-5 SELL 1@703 TAKER',
      expect.stringMatching(/ BUY 0\.5@1000 TAKER$/),
    ]);
    expect(t.sim.statement().map((f) => `${f.type} ${f.amount.toFixed()} ${f.ts}`)).toEqual([
      'LIQUIDATION_FEE -2.5 2',
    ]);
    expect(t.sim.equity().toFixed()).toBe('-0.6015');
  });
});
