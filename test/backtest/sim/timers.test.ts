import { describe, expect, it } from 'vitest';
import type { LoanOptions } from '../../../backtest/sim/index.ts';
import { D, LIQUIDATION_NODE_TYPES } from '../../../core/model/index.ts';
import { aDailyBar } from '../../kit/daily-bars.ts';
import { anEthSpot, anInstrument } from '../../kit/instrument-builders.ts';
import { aLimit, aMark, aMarket, aQuote, aSim, aTrade, type SimUnderTest } from '../../kit/sim-builders.ts';

const AAPL = 'US_EQUITY_AAPL';
const at = (iso: string): number => Date.parse(iso);

function anEquitySim(fillModel: 'bar' | 'through') {
  return aSim({
    fillModel,
    instruments: [
      anInstrument(AAPL, { tickSize: D('0.01'), lotSize: D('1'), minSize: D('1'), settleAsset: 'USD' }),
    ],
    startingBalances: { USD: D('100000') },
  });
}

describe('sim venue: timers', () => {
  it('ends a US equity DAY order at the 16:00 New York close of its trading day', () => {
    const t = anEquitySim('through');
    // Friday 6 March 2026, 10:00 EST.
    t.sim.onMarket(aQuote(at('2026-03-06T15:00:00Z'), 189.99, 500, 190, 500, AAPL));
    t.send(aLimit('day', 'BUY', '10', '180', { sym: AAPL, timeInForce: 'DAY' }));
    t.sim.advanceTo(at('2026-03-06T20:59:59Z'));
    expect(t.of('order').at(-1)?.order.orderState).toBe('OPEN');
    t.sim.advanceTo(at('2026-03-06T21:00:00Z'));
    expect(t.of('order').at(-1)?.order).toMatchObject({
      orderState: 'CANCELLED',
      updateAt: at('2026-03-06T21:00:00Z'),
    });
  });

  it('ends a US equity GTD order at the end of its expiry date in New York, as the kernel writes the date', () => {
    const t = anEquitySim('through');
    t.sim.onMarket(aQuote(at('2026-03-06T15:00:00Z'), 189.99, 500, 190, 500, AAPL));
    t.send(aLimit('gtd', 'BUY', '10', '180', { sym: AAPL, timeInForce: 'GTD', expiryDate: '2026-03-06' }));
    // Midnight UTC is 19:00 EST on the 6th: still that date in New York.
    t.sim.advanceTo(at('2026-03-07T04:59:59Z'));
    expect(t.of('order').at(-1)?.order.orderState).toBe('OPEN');
    t.sim.advanceTo(at('2026-03-07T05:00:00Z'));
    expect(t.of('order').at(-1)?.order).toMatchObject({
      orderState: 'CANCELLED',
      action: 'EXPIRE',
      updateAt: at('2026-03-07T05:00:00Z'),
    });
  });

  it('ends a crypto DAY order at the next 00:00 UTC', () => {
    const t = aSim();
    t.sim.onMarket(aQuote(at('2026-03-06T15:00:00Z'), 99.9, 100, 100, 100));
    t.send(aLimit('day', 'BUY', '1', '90', { timeInForce: 'DAY' }));
    t.sim.advanceTo(at('2026-03-06T23:59:59Z'));
    expect(t.of('order').at(-1)?.order.orderState).toBe('OPEN');
    t.sim.advanceTo(at('2026-03-07T00:00:00Z'));
    expect(t.of('order').at(-1)?.order.orderState).toBe('CANCELLED');
  });

  it('matches a DAY order against the whole daily bar it was live in, then expires it', () => {
    const t = anEquitySim('bar');
    // Thursday's bar closes at Friday 00:00 New York (05:00Z); the DAY order is placed then and
    // lives to Friday 16:00 New York, inside Friday's bar (05:00Z to Saturday 05:00Z).
    t.sim.onMarket(aDailyBar(AAPL, '2026-03-05T05:00:00Z', '2026-03-06T05:00:00Z', [190, 192, 188, 191]));
    t.send(aLimit('dip', 'BUY', '10', '187.5', { sym: AAPL, timeInForce: 'DAY' }));
    t.send(aLimit('miss', 'BUY', '10', '180', { sym: AAPL, timeInForce: 'DAY' }));
    t.sim.onMarket(aDailyBar(AAPL, '2026-03-06T05:00:00Z', '2026-03-07T05:00:00Z', [190.5, 191, 186, 189]));
    const fills = t
      .of('execution')
      .map((e) => `${e.execution.clientOrderId} ${e.execution.quantity}@${e.execution.price}`);
    // Low 186 went through 187.5: filled at the limit; 180 was never reached.
    expect(fills).toEqual(['dip 10@187.5']);
    const miss = t
      .of('order')
      .filter((e) => e.order.clientOrderId === 'miss')
      .at(-1)?.order;
    expect(miss?.orderState).toBe('CANCELLED');
  });

  it('stamps a DAY expiry that waited for its daily bar with the 16:00 close, not the bar close', () => {
    const t = anEquitySim('bar');
    t.sim.onMarket(aDailyBar(AAPL, '2026-03-05T05:00:00Z', '2026-03-06T05:00:00Z', [190, 192, 188, 191]));
    t.send(aLimit('miss', 'BUY', '10', '180', { sym: AAPL, timeInForce: 'DAY' }));
    // Friday's bar closes at Saturday 00:00 New York (05:00Z); the order ended at Friday 16:00 (21:00Z).
    t.sim.onMarket(aDailyBar(AAPL, '2026-03-06T05:00:00Z', '2026-03-07T05:00:00Z', [190.5, 191, 186, 189]));
    expect(t.of('order').at(-1)?.order).toMatchObject({
      clientOrderId: 'miss',
      orderState: 'CANCELLED',
      action: 'EXPIRE',
      updateAt: at('2026-03-06T21:00:00Z'),
    });
  });
});

const HOUR = 3_600_000;
const ETH = 'OKX_SPOT_ETH_USDT';
/** ETH lent at 876 % a year: 0.001 ETH per ETH and hour; maintenance 5 % of the loan's value. */
const ETH_LOANS: LoanOptions = {
  assets: { 'OKX:ETH': { annualRate: D('8.76'), userQuota: D('100'), pool: D('100') } },
  maintenanceMarginRate: D('0.05'),
};

/**
 * 1000 USDT; 5 ETH borrowed and sold at 100 (USDT 1499.5), then ETH at 285: equity 1499.5 -
 * (5 + interest) x 285 against a maintenance margin of 5 x 285 x 5 % = 71.25. Each hour's interest
 * is 0.005 ETH: 73.075 after one hour, 71.65 after two, 70.225 after three, below 71.25.
 */
function aShortNearItsMaintenance(): SimUnderTest {
  const t = aSim({
    instruments: [anEthSpot({ tickSize: D('0.01') })],
    startingBalances: { USDT: D('1000') },
    loans: ETH_LOANS,
  });
  t.sim.onMarket(aTrade(0, 100, 100, 'BUY', ETH));
  t.send(
    { kind: 'borrow', ref: 'b', exchange: 'OKX', coin: 'ETH', amount: D('5') },
    aMarket('s', 'SELL', '5', { sym: ETH }),
  );
  t.sim.advanceTo(1);
  // equity 1499.5 - 1425 = 74.5 >= 71.25: a margin call, no liquidation
  t.sim.onMarket(aTrade(2, 285, 100, 'BUY', ETH));
  expect(t.of('liquidationEvent')).toEqual([]);
  return t;
}

/** When each liquidation node, record and fill of a run was stamped. */
function liquidationTimes(t: SimUnderTest): number[] {
  return [
    ...t.of('liquidationEvent').map((e) => e.record.timestamp),
    ...t.of('liquidationPosition').map((e) => e.record.timestamp),
  ];
}

describe('sim venue: margin after a timer charges the account', () => {
  it('liquidates at the hour whose interest takes equity below maintenance, not at the next market event (hand-computed)', async () => {
    const t = aShortNearItsMaintenance();
    t.sim.onMarket(aTrade(5 * HOUR, 285, 100, 'BUY', ETH));
    const nodes = t.of('liquidationEvent').map((e) => e.record);
    expect(nodes.map((n) => n.nodeType)).toEqual([...LIQUIDATION_NODE_TYPES]);
    expect([nodes[0]?.equity.toFixed(), nodes[0]?.maintainMargin.toFixed()]).toEqual(['70.225', '71.25']);
    expect(new Set(liquidationTimes(t))).toEqual(new Set([3 * HOUR]));
    // buys back 5 + 0.015 of interest at the mark 285 = 1429.275, fee 0.5 % = 7.146375, and repays:
    // no loan is left to charge at 4 and 5 hours
    const record = t.of('liquidationPosition')[0]?.record;
    expect([record?.side, record?.quantity.toFixed(), record?.price.toFixed()]).toEqual([
      'BUY',
      '5.015',
      '285',
    ]);
    expect(t.sim.statement().map((f) => `${f.type} ${f.amount.toFixed()} ${f.ts / HOUR}h`)).toEqual([
      'BORROW 5 0h',
      'DEDUCT_INTEREST -0.005 1h',
      'DEDUCT_INTEREST -0.005 2h',
      'DEDUCT_INTEREST -0.005 3h',
      'LIQUIDATION_FEE -7.146375 3h',
      'REPAY -5 3h',
    ]);
    // USDT 1499.5 - 1429.275 - 7.146375; ETH -0.015 + 5.015 - 5
    const { assets } = await t.sim.snapshot();
    expect(assets.map((a) => `${a.coin} ${a.balance.toFixed()}`)).toEqual(['USDT 63.078625', 'ETH 0']);
  });

  it('liquidates at that hour when time runs out of market data (advanceTo at the end of a replay)', () => {
    const t = aShortNearItsMaintenance();
    t.sim.advanceTo(5 * HOUR);
    expect(t.of('liquidationEvent').map((e) => e.record.nodeType)).toEqual([...LIQUIDATION_NODE_TYPES]);
    expect(new Set(liquidationTimes(t))).toEqual(new Set([3 * HOUR]));
  });

  it('liquidates when a funding payment fired by its timer takes equity below maintenance, at that timer', () => {
    // long 10 BTC at 100 on 200 USDT (fee 0.5): at the mark 80.5 equity 4.5 >= MM 10 x 80.5 x 0.5 % = 4.025
    const t = aSim({ startingBalances: { USDT: D('200') } });
    t.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
    t.sim.onMarket(aMark(0, 100));
    t.send(aMarket('m', 'BUY', '10'));
    t.sim.onMarket(aMark(1, 80.5, { rate: 0.001, next: 8 * HOUR }));
    expect(t.of('liquidationEvent')).toEqual([]);
    // the next event comes an hour after the funding time: the timer settles it just after 8h
    t.sim.onMarket(aMark(9 * HOUR, 80.5));
    // pays 10 x 80.5 x 0.001 = 0.805: equity 3.695 < 4.025; closed at 80.5, fee 805 x 0.5 %
    expect(t.sim.statement().map((f) => `${f.type} ${f.amount.toFixed()} ${f.ts}`)).toEqual([
      `FUNDING_FEE -0.805 ${8 * HOUR}`,
      `LIQUIDATION_FEE -4.025 ${8 * HOUR + 1}`,
    ]);
    const nodes = t.of('liquidationEvent').map((e) => e.record);
    expect(nodes.map((n) => n.nodeType)).toEqual([...LIQUIDATION_NODE_TYPES]);
    expect([nodes[0]?.equity.toFixed(), nodes[0]?.maintainMargin.toFixed()]).toEqual(['3.695', '4.025']);
    expect(new Set(liquidationTimes(t))).toEqual(new Set([8 * HOUR + 1]));
    expect(t.of('execution').at(-1)?.execution.timestamp).toBe(8 * HOUR + 1);
  });
});
