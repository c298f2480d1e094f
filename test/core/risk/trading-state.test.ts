import { describe, expect, it } from 'vitest';
import { D, type Intent } from '../../../core/model/index.ts';
import { isRiskReducing, stricterStatus } from '../../../core/risk/index.ts';
import { anAlgoOrder } from '../../kit/algo-order-builders.ts';
import { aLimitOrder } from '../../kit/intent-builders.ts';
import { anOrder } from '../../kit/order-builders.ts';
import { aRiskView } from '../../kit/risk-view-builder.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';

describe('trading state', () => {
  it('counts cancels, closes, repayments and reducing orders as risk-reducing', () => {
    const view = aRiskView();
    view.setPosition(BTC, '2');
    const reducing: Intent[] = [
      { kind: 'cancelOrder', ref: 'a', target: 't', sym: BTC },
      { kind: 'closePositions', ref: 'b', symList: [BTC] },
      { kind: 'repay', ref: 'c', exchange: 'BINANCE', coin: 'USDT', amount: D('10') },
      aLimitOrder({ side: 'SELL', qty: D('2') }),
      aLimitOrder({ side: 'BUY', reduceOnly: true }),
    ];
    expect(reducing.map((intent) => isRiskReducing(intent, view))).toEqual([true, true, true, true, true]);
  });

  it('does not count opening orders, flips, borrowing or a position-mode switch', () => {
    const view = aRiskView();
    view.setPosition(BTC, '2');
    const adding: Intent[] = [
      aLimitOrder({ side: 'BUY' }),
      aLimitOrder({ side: 'SELL', qty: D('3') }),
      { kind: 'borrow', ref: 'b', exchange: 'BINANCE', coin: 'USDT', amount: D('10') },
      { kind: 'setPositionMode', ref: 'm', positionMode: 'BOTH' },
    ];
    expect(adding.map((intent) => isRiskReducing(intent, view))).toEqual([false, false, false, false]);
  });

  it('lets a reducing order be re-priced but not grown', () => {
    const view = aRiskView();
    view.setPosition(BTC, '2');
    view.orders = [
      { strategyId: 's1', order: anOrder({ clientOrderId: 'tp', side: 'SELL', orderQty: D('1') }) },
    ];
    expect(
      isRiskReducing({ kind: 'modifyOrder', ref: 'm1', target: 'tp', sym: BTC, price: D('101') }, view),
    ).toBe(true);
    expect(
      isRiskReducing({ kind: 'modifyOrder', ref: 'm2', target: 'tp', sym: BTC, qty: D('1.5') }, view),
    ).toBe(false);
  });

  it('lets an algo order that reduces be re-triggered but not grown, and an opening one not at all', () => {
    const view = aRiskView();
    view.setPosition(BTC, '2');
    view.algoOrders = [
      { strategyId: 's1', algo: anAlgoOrder({ clientAlgoOrderId: 'sl', qty: D('1') }) },
      { strategyId: 's1', algo: anAlgoOrder({ clientAlgoOrderId: 'entry', side: 'BUY', reduceOnly: false }) },
    ];
    const replace = (target: string, change: { triggerPrice?: string; qty?: string }): Intent => ({
      kind: 'replaceAlgoOrder',
      ref: `r-${target}`,
      target,
      sym: BTC,
      ...(change.triggerPrice === undefined ? {} : { triggerPrice: D(change.triggerPrice) }),
      ...(change.qty === undefined ? {} : { qty: D(change.qty) }),
    });
    expect(isRiskReducing(replace('sl', { triggerPrice: '95' }), view)).toBe(true);
    expect(isRiskReducing(replace('sl', { qty: '1.5' }), view)).toBe(false);
    expect(isRiskReducing(replace('entry', { triggerPrice: '95' }), view)).toBe(false);
    expect(isRiskReducing(replace('unknown', { triggerPrice: '95' }), view)).toBe(false);
  });

  it('takes the stricter of the portfolio and strategy states', () => {
    expect(stricterStatus({ state: 'REDUCING' }, { state: 'HALTED', reason: 'x' }).state).toBe('HALTED');
    expect(stricterStatus({ state: 'REDUCING' }, { state: 'ACTIVE' }).state).toBe('REDUCING');
  });
});
