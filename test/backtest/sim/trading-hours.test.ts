import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aFeedBar } from '../../kit/kernel-events.ts';
import {
  aLimit,
  aMarket,
  anAlgo,
  aQuote,
  aSim,
  aTrade,
  BTC,
  fillLines,
  type SimUnderTest,
} from '../../kit/sim-builders.ts';

const AAPL = 'US_EQUITY_AAPL';
/** New York wall-clock times around Monday 2026-03-09 (EDT, UTC-4). */
const NY = {
  monday1500: Date.parse('2026-03-09T19:00:00Z'),
  monday1630: Date.parse('2026-03-09T20:30:00Z'),
  monday1700: Date.parse('2026-03-09T21:00:00Z'),
  monday1900: Date.parse('2026-03-09T23:00:00Z'),
  monday2100: Date.parse('2026-03-10T01:00:00Z'),
  tuesday0400: Date.parse('2026-03-10T08:00:00Z'),
  tuesday0800: Date.parse('2026-03-10T12:00:00Z'),
  tuesday0930: Date.parse('2026-03-10T13:30:00Z'),
};

function anEquitySim(fillModel: 'bar' | 'through' = 'through'): SimUnderTest {
  return aSim({
    fillModel,
    instruments: [
      anInstrument(AAPL, { tickSize: D('0.01'), lotSize: D('1'), minSize: D('1'), settleAsset: 'USD' }),
      anInstrument(BTC),
    ],
    startingBalances: { USD: D('100000'), USDT: D('100000') },
  });
}

function stateOf(t: SimUnderTest, ref: string): string | undefined {
  return t.of('order').findLast((e) => e.order.clientOrderId === ref)?.order.orderState;
}

describe('sim venue: US equity trading hours (extendedTrading)', () => {
  it('holds a market order placed after hours, without extendedTrading, until the first event of the regular session', () => {
    const t = anEquitySim();
    t.sim.onMarket(aQuote(NY.monday1900, 189.99, 500, 190, 500, AAPL));
    t.send(aMarket('m', 'BUY', '10', { sym: AAPL }));
    t.sim.advanceTo(NY.monday1900 + 1);
    t.sim.onMarket(aQuote(NY.monday1900 + 2, 189.98, 500, 190.01, 500, AAPL));
    t.sim.onMarket(aQuote(NY.tuesday0400, 191, 500, 191.02, 500, AAPL));
    expect(fillLines(t)).toEqual([]);
    expect(stateOf(t, 'm')).toBe('NEW');
    t.sim.onMarket(aQuote(NY.tuesday0930, 192, 500, 192.05, 500, AAPL));
    expect(fillLines(t)).toEqual(['m BUY 10@192.05 TAKER']);
    expect(t.of('execution')[0]?.execution.timestamp).toBe(NY.tuesday0930);
  });

  it('fills an extendedTrading order after hours and pre-market, but not overnight', () => {
    const t = anEquitySim();
    t.sim.onMarket(aQuote(NY.monday1900, 189.99, 500, 190, 500, AAPL));
    t.send(aMarket('late', 'BUY', '10', { sym: AAPL, extendedTrading: true }));
    t.sim.advanceTo(NY.monday1900 + 1);
    expect(fillLines(t)).toEqual(['late BUY 10@190 TAKER']);
    t.sim.onMarket(aQuote(NY.monday2100, 189, 500, 189.5, 500, AAPL));
    t.send(aMarket('night', 'BUY', '10', { sym: AAPL, extendedTrading: true }));
    t.sim.advanceTo(NY.monday2100 + 1);
    t.sim.onMarket(aQuote(NY.monday2100 + 2, 189, 500, 189.5, 500, AAPL));
    expect(fillLines(t)).toEqual(['late BUY 10@190 TAKER']);
    t.sim.onMarket(aQuote(NY.tuesday0400, 188, 500, 188.5, 500, AAPL));
    expect(fillLines(t)).toEqual(['late BUY 10@190 TAKER', 'night BUY 10@188.5 TAKER']);
  });

  it('keeps a resting limit from fills after the close, and matches it again from the next regular session', () => {
    const t = anEquitySim();
    t.sim.onMarket(aQuote(NY.monday1500, 189.99, 500, 190, 500, AAPL));
    t.send(
      aLimit('regular', 'BUY', '10', '189', { sym: AAPL }),
      aLimit('extended', 'BUY', '5', '188.5', { sym: AAPL, extendedTrading: true }),
    );
    t.sim.advanceTo(NY.monday1500 + 1);
    expect([stateOf(t, 'regular'), stateOf(t, 'extended')]).toEqual(['OPEN', 'OPEN']);
    // After hours a print through both: only the extendedTrading order, behind the regular one on
    // the book, may fill.
    t.sim.onMarket(aTrade(NY.monday1630, 188, 50, 'SELL', AAPL));
    expect(fillLines(t)).toEqual(['extended BUY 5@188.5 MAKER']);
    t.sim.onMarket(aTrade(NY.tuesday0800, 188, 50, 'SELL', AAPL));
    expect(stateOf(t, 'regular')).toBe('OPEN');
    t.sim.onMarket(aTrade(NY.tuesday0930, 188.9, 50, 'SELL', AAPL));
    expect(fillLines(t)).toEqual(['extended BUY 5@188.5 MAKER', 'regular BUY 10@189 MAKER']);
  });

  it('fills a limit the market gapped through overnight at the open as a taker, ahead of one sent after the close', () => {
    const t = anEquitySim();
    t.sim.onMarket(aQuote(NY.monday1500, 189.99, 500, 190, 500, AAPL));
    t.send(aLimit('resting', 'BUY', '10', '189', { sym: AAPL }));
    t.sim.advanceTo(NY.monday1500 + 1);
    t.sim.onMarket(aQuote(NY.monday1900, 188.5, 500, 188.6, 500, AAPL));
    t.send(aLimit('sentLate', 'BUY', '10', '189', { sym: AAPL }));
    t.sim.advanceTo(NY.monday1900 + 1);
    t.sim.onMarket(aQuote(NY.tuesday0930, 184.95, 500, 185, 500, AAPL));
    expect(fillLines(t)).toEqual(['resting BUY 10@185 TAKER', 'sentLate BUY 10@185 TAKER']);
  });

  it('fills a limit the market gapped through overnight as a taker when no event came after the close (regular-session data)', () => {
    const t = anEquitySim();
    t.sim.onMarket(aQuote(NY.monday1500, 189.99, 500, 190, 500, AAPL));
    t.send(aLimit('resting', 'BUY', '10', '189', { sym: AAPL }));
    t.sim.advanceTo(NY.monday1500 + 1);
    t.sim.onMarket(aQuote(NY.tuesday0930, 184.95, 500, 185, 500, AAPL));
    expect(fillLines(t)).toEqual(['resting BUY 10@185 TAKER']);
  });

  it('fills a resting limit the market comes to within one session at its own price as a maker', () => {
    const t = anEquitySim();
    t.sim.onMarket(aQuote(Date.parse('2026-03-09T13:31:00Z'), 189.99, 500, 190, 500, AAPL));
    t.send(aLimit('resting', 'BUY', '10', '189', { sym: AAPL }));
    t.sim.advanceTo(NY.monday1500);
    t.sim.onMarket(aQuote(NY.monday1500 + 1, 184.95, 500, 185, 500, AAPL));
    expect(fillLines(t)).toEqual(['resting BUY 10@189 MAKER']);
  });

  it('fills as a maker a limit placed in the session (or pre-market) before its sym first trades, which sat through no close', () => {
    const tuesday0931 = NY.tuesday0930 + 60_000;
    const t = anEquitySim();
    t.sim.onMarket(aQuote(NY.monday1500, 189.99, 500, 190, 500, AAPL));
    t.sim.advanceTo(NY.tuesday0400 + 3_600_000);
    t.send(aLimit('preMarket', 'SELL', '10', '191', { sym: AAPL, extendedTrading: true }));
    t.sim.advanceTo(tuesday0931);
    t.send(
      aLimit('inSession', 'BUY', '10', '189', { sym: AAPL }),
      aLimit('postOnly', 'BUY', '10', '188', { sym: AAPL, timeInForce: 'GTX' }),
    );
    t.sim.advanceTo(tuesday0931 + 1);
    t.sim.onMarket(aQuote(tuesday0931 + 60_000, 184.95, 500, 185, 500, AAPL));
    t.sim.onMarket(aQuote(tuesday0931 + 120_000, 192, 500, 192.05, 500, AAPL));
    expect(fillLines(t)).toEqual([
      'inSession BUY 10@189 MAKER',
      'postOnly BUY 10@188 MAKER',
      'preMarket SELL 10@191 MAKER',
    ]);
  });

  it('ranks the orders a gap crossed by price, then time, whichever session list they came back from', () => {
    const t = anEquitySim();
    t.sim.onMarket(aQuote(NY.monday1500, 189.99, 500, 190, 500, AAPL));
    t.send(
      aLimit('first', 'BUY', '10', '189', { sym: AAPL }),
      aLimit('better', 'BUY', '10', '189.5', { sym: AAPL }),
    );
    t.sim.advanceTo(NY.monday1500 + 1);
    t.send(aLimit('second', 'BUY', '10', '189', { sym: AAPL, extendedTrading: true }));
    t.sim.advanceTo(NY.monday1500 + 2);
    // After hours: the regular orders leave the book, the extendedTrading one stays on it.
    t.sim.onMarket(aQuote(NY.monday1700, 189.6, 500, 189.7, 500, AAPL));
    t.sim.onMarket(aQuote(NY.tuesday0930, 184.95, 500, 185, 20, AAPL));
    expect(fillLines(t)).toEqual(['better BUY 10@185 TAKER', 'first BUY 10@185 TAKER']);
  });

  it('cancels a post-only limit the market gapped through overnight when it returns, as it would one arriving', () => {
    const t = anEquitySim();
    t.sim.onMarket(aQuote(NY.monday1500, 189.99, 500, 190, 500, AAPL));
    t.send(
      aLimit('postOnly', 'BUY', '10', '189', { sym: AAPL, timeInForce: 'GTX' }),
      aLimit('below', 'BUY', '10', '180', { sym: AAPL, timeInForce: 'GTX' }),
    );
    t.sim.advanceTo(NY.monday1500 + 1);
    expect([stateOf(t, 'postOnly'), stateOf(t, 'below')]).toEqual(['OPEN', 'OPEN']);
    t.sim.onMarket(aQuote(NY.tuesday0930, 184.95, 500, 185, 500, AAPL));
    const last = t.of('order').findLast((e) => e.order.clientOrderId === 'postOnly')?.order;
    expect([last?.orderState, last?.cancelType]).toEqual(['CANCELLED', 'GTX']);
    expect(stateOf(t, 'below')).toBe('OPEN');
    t.sim.onMarket(aTrade(NY.tuesday0930 + 1, 184, 50, 'SELL', AAPL));
    expect(fillLines(t)).toEqual([]);
  });

  it('cancels a limit taken off the book for the night, and leaves crypto trading around the clock', () => {
    const t = anEquitySim();
    t.sim.onMarket(aQuote(NY.monday1500, 189.99, 500, 190, 500, AAPL));
    t.send(aLimit('rest', 'BUY', '10', '189', { sym: AAPL }));
    t.sim.advanceTo(NY.monday1500 + 1);
    t.sim.onMarket(aTrade(NY.monday1900, 188, 50, 'SELL', AAPL));
    t.send({ kind: 'cancelOrder', ref: 'c', target: 'rest', sym: AAPL });
    t.sim.advanceTo(NY.monday1900 + 1);
    expect(stateOf(t, 'rest')).toBe('CANCELLED');
    t.sim.onMarket(aQuote(NY.monday2100, 99.9, 5, 100, 5));
    t.send(aMarket('btc', 'BUY', '1'));
    t.sim.advanceTo(NY.monday2100 + 1);
    expect(fillLines(t)).toEqual(['btc BUY 1@100 TAKER']);
    t.sim.onMarket(aTrade(NY.tuesday0930, 188, 50, 'SELL', AAPL));
    expect(fillLines(t)).toEqual(['btc BUY 1@100 TAKER']);
  });

  it('on bars fires an algo order on an after-hours bar, its order waiting for the regular session', () => {
    const t = anEquitySim('bar');
    t.sim.onMarket(aFeedBar(NY.monday1500, [190, 190, 190, 190, 100], AAPL));
    t.send(anAlgo('stop', { sym: AAPL, triggerPrice: D('195'), qty: D('10') }));
    t.sim.advanceTo(NY.monday1500 + 60_001);
    t.sim.onMarket(aFeedBar(NY.monday1700, [194, 196, 193, 195.5, 100], AAPL));
    expect(stateOf(t, 'stop-trig')).toBe('NEW');
    expect(fillLines(t)).toEqual([]);
    t.sim.onMarket(aFeedBar(NY.tuesday0930, [197, 198, 196, 197.5, 100], AAPL));
    expect(fillLines(t)).toEqual(['stop-trig BUY 10@197 TAKER']);
  });

  it('on bars releases a held conditional order on an after-hours bar, the order waiting for the regular session', () => {
    const t = anEquitySim('bar');
    t.sim.onMarket(aFeedBar(NY.monday1500, [190, 190, 190, 190, 100], AAPL));
    t.send(
      aMarket('held', 'BUY', '10', {
        sym: AAPL,
        condition: { code: 'UT', triggerPrice: D('195') },
      }),
    );
    t.sim.advanceTo(NY.monday1500 + 60_001);
    t.sim.onMarket(aFeedBar(NY.monday1700, [194, 196, 193, 195.5, 100], AAPL));
    expect(
      t.of('order').some((e) => e.order.clientOrderId === 'held' && e.order.actionMsg?.includes('triggered')),
    ).toBe(true);
    expect(fillLines(t)).toEqual([]);
    t.sim.onMarket(aFeedBar(NY.tuesday0930, [197, 198, 196, 197.5, 100], AAPL));
    expect(fillLines(t)).toEqual(['held BUY 10@197 TAKER']);
  });

  it('on bars matches an equity order only against bars its session meets', () => {
    const t = anEquitySim('bar');
    t.sim.onMarket(aFeedBar(NY.tuesday0800 - 60_000, [190, 190, 190, 190, 100], AAPL));
    t.send(
      aLimit('regular', 'BUY', '10', '189', { sym: AAPL }),
      aLimit('extended', 'BUY', '10', '189', { sym: AAPL, extendedTrading: true }),
    );
    t.sim.advanceTo(NY.tuesday0800 + 1);
    t.sim.onMarket(aFeedBar(NY.tuesday0800 + 60_000, [189.5, 189.5, 188, 188.5, 100], AAPL));
    expect(fillLines(t)).toEqual(['extended BUY 10@189 MAKER']);
    t.sim.onMarket(aFeedBar(NY.tuesday0930, [189.5, 189.5, 188, 188.5, 100], AAPL));
    expect(fillLines(t)).toEqual(['extended BUY 10@189 MAKER', 'regular BUY 10@189 MAKER']);
  });
});
