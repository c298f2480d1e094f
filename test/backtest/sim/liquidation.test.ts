import { describe, expect, it } from 'vitest';
import { UNBOUNDED_RISK_RATIO } from '../../../backtest/sim/margin.ts';
import { D, LIQUIDATION_NODE_TYPES } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aLimit, aMark, aMarket, aQuote, aSim } from '../../kit/sim-builders.ts';

/**
 * Long 10 @ 100 (taker fee 0.5) on 200 USDT, leverage 10: liqPrice = 800.5 / 9.95 = 80.4523 (see
 * margin test). Equity at mark p is `usdt` - 0.5 + 10 x (p - 100), maintenance 10 x p x 0.5 %.
 */
function aLeveragedLong(usdt = '200') {
  const t = aSim({ startingBalances: { USDT: D(usdt) } });
  t.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
  t.sim.onMarket(aMark(0, 100));
  t.send(aMarket('m', 'BUY', '10'), aLimit('bid', 'BUY', '0.5', '50'));
  t.sim.onMarket(aMark(1, 100));
  return t;
}

describe('sim venue: liquidation', () => {
  it('reports MARGIN_CALL but does not liquidate while equity stays above maintenance margin, and NORMAL again on recovery', () => {
    const t = aLeveragedLong();
    t.sim.onMarket(aMark(2, 81)); // equity 9.5, MM 4.05: risk ratio 0.43
    expect(t.of('account').at(-1)?.account.accountStatus).toBe('NORMAL');
    const before = t.of('account').length;
    t.sim.onMarket(aMark(3, 80.5)); // equity 4.5 >= MM 4.025: risk ratio 0.894 >= 0.8
    expect(t.of('liquidationEvent')).toHaveLength(0);
    expect(t.of('account').length).toBe(before + 1);
    expect(t.of('account').at(-1)?.account).toMatchObject({ accountStatus: 'MARGIN_CALL' });
    t.sim.onMarket(aMark(4, 80.55)); // equity 5, MM 4.02750: 0.8055, still MARGIN_CALL: nothing new to report
    expect(t.of('account').length).toBe(before + 1);
    t.sim.onMarket(aMark(5, 95));
    expect(t.of('account').at(-1)?.account.accountStatus).toBe('NORMAL');
  });

  it('does not liquidate while equity equals maintenance margin exactly, only once it is below', () => {
    // 199.525 - 0.5 + 10 x (80.5 - 100) = 4.025 = 10 x 80.5 x 0.5 %
    const t = aLeveragedLong('199.525');
    t.sim.onMarket(aMark(2, 80.5));
    expect(t.of('liquidationEvent')).toHaveLength(0);
    expect(t.sim.equity().toFixed()).toBe('4.025');
    t.sim.onMarket(aMark(3, 80.4)); // equity 3.025 < MM 4.02
    expect(t.of('liquidationEvent').map((e) => e.record.nodeType)).toEqual([...LIQUIDATION_NODE_TYPES]);
  });

  it('walks the nine nodes, cancels orders, closes at mark with the liquidation fee, and reports the records twice', () => {
    const t = aLeveragedLong();
    t.sim.onMarket(aMark(2, 80.4)); // equity 199.5 - 196 = 3.5 < MM 4.02
    const nodes = t.of('liquidationEvent').map((e) => e.record);
    expect(nodes.map((n) => n.nodeType)).toEqual([...LIQUIDATION_NODE_TYPES]);
    expect(new Set(nodes.map((n) => n.eventType))).toEqual(new Set(['FULL_LIQUIDATION']));
    expect(nodes[0]?.equity.toFixed()).toBe('3.5');
    expect(nodes[0]?.maintainMargin.toFixed()).toBe('4.02');
    expect(
      t.of('order').find((e) => e.order.clientOrderId === 'bid' && e.order.orderState === 'CANCELLED')?.order
        .cancelType,
    ).toBe('LIQUIDATION');
    const records = t.of('liquidationPosition');
    expect(records.map((e) => e.byUser)).toEqual([false, true]);
    const record = records[0]?.record;
    // 10 x 80.4 x 0.5 % = 4.02 of liquidation fee
    expect([
      record?.side,
      record?.quantity.toFixed(),
      record?.price.toFixed(),
      record?.liquidationFee.toFixed(),
    ]).toEqual(['SELL', '10', '80.4', '4.02']);
    expect(record?.position.positionQty.toFixed()).toBe('10');
    // balance 199.5 - 196 - 4.02 = -0.52: no insurance fund top-up
    expect(t.of('asset').at(-1)?.asset.balance.toFixed()).toBe('-0.52');
    expect(t.sim.ledger().liquidationFees.toFixed()).toBe('4.02');
    expect(t.sim.statement().map((f) => [f.type, f.amount.toFixed()])).toEqual([
      ['LIQUIDATION_FEE', '-4.02'],
    ]);
    expect(t.of('account').some((e) => e.account.accountStatus === 'LIQUIDATION')).toBe(true);
    expect(t.of('account').at(-1)?.account.accountStatus).toBe('NORMAL');
  });

  it('pushes its orders, and every update of them, after its first node and before FINISHED: a client tells them from a close’s by that alone', () => {
    const t = aLeveragedLong();
    t.sim.onMarket(aMark(2, 80.4));
    const liquidationOrders = new Set(t.of('liquidationPosition').map((e) => e.record.orderId));
    let underWay = false;
    const seen: string[] = [];
    for (const event of t.events) {
      if (event.kind === 'liquidationEvent') underWay = event.record.nodeType !== 'FINISHED';
      else if (event.kind === 'order' && liquidationOrders.has(event.order.orderId))
        seen.push(`${event.order.orderState} ${underWay ? 'during' : 'outside'}`);
    }
    expect(seen).toEqual(['NEW during', 'FILLED during']);
  });

  it('reports a finite riskRatio, the cap for an unbounded one, when a gap takes equity below zero', () => {
    const t = aLeveragedLong();
    t.sim.onMarket(aMark(2, 70)); // equity 199.5 - 300 = -100.5 with MM 3.5 due: no bound
    const accounts = t.of('account').map((e) => e.account);
    const liquidating = accounts.find((a) => a.accountStatus === 'LIQUIDATION');
    expect(liquidating?.riskRatio.toFixed()).toBe(UNBOUNDED_RISK_RATIO.toFixed());
    expect(accounts.every((a) => a.riskRatio.isFinite())).toBe(true);
  });

  it('liquidates at the exact quote mid on a recording without trades or marks, with no float noise in the money', () => {
    // 2 at the mid 99.95 at 10x locks 19.99 and pays 0.09995 of taker fee: 21 carries it, 20 did not
    const t = aSim({ startingBalances: { USDT: D('21') } });
    t.sim.onMarket(aQuote(1000, 99.9, 50, 100, 50));
    t.send(aMarket('b', 'BUY', '2')); // 2 at 100
    t.sim.onMarket(aQuote(2000, 9.99, 50, 10, 50)); // mid 9.995 (9.99 + 10 is 19.990000000000002 in floats)
    const record = t.of('liquidationPosition')[0]?.record;
    // 2 x 9.995 x 0.5 % = 0.09995 of liquidation fee; rpnl 2 x (9.995 - 100) = -180.01
    expect([record?.price.toFixed(), record?.liquidationFee.toFixed()]).toEqual(['9.995', '0.09995']);
    expect(t.of('execution').map((e) => e.execution.rpnl.toFixed())).toEqual(['0', '-180.01']);
  });

  it('liquidates only the largest position when that restores the margin (partial liquidation)', () => {
    const eth = 'BINANCE_PERP_ETH_USDT';
    const t = aSim({
      startingBalances: { USDT: D('300') },
      instruments: [anInstrument('BINANCE_PERP_BTC_USDT'), anInstrument(eth)],
      maintenanceMarginRate: { BINANCE_PERP_BTC_USDT: D('0.05'), [eth]: D('0.005') },
    });
    t.sim.onMarket(aQuote(0, 99.9, 100, 100, 100));
    t.sim.onMarket(aQuote(0, 9.99, 100, 10, 100, eth));
    t.send(aMarket('btc', 'BUY', '20'), aMarket('eth', 'BUY', '1', { sym: eth }));
    t.sim.onMarket(aMark(1, 100));
    t.sim.onMarket(aMark(1, 10, undefined, eth));
    // BTC to 86: balance 300 - 1 - 0.005 = 298.995; upnl -280 -> equity 18.995; MM = 20 x 86 x 5 % + 10 x 0.5 % = 86.05
    t.sim.onMarket(aMark(2, 86));
    const first = t.of('liquidationEvent')[0]?.record;
    expect(first?.eventType).toBe('PARTIAL_LIQUIDATION');
    expect(t.of('liquidationPosition').map((e) => e.record.sym)).toEqual([
      'BINANCE_PERP_BTC_USDT',
      'BINANCE_PERP_BTC_USDT',
    ]);
    expect(
      t
        .of('liquidationEvent')
        .at(-1)
        ?.record.positions.map((p) => p.sym),
    ).toEqual([eth]);
  });
});
