import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { from } from '../../kit/intent-builders.ts';
import { anOrder } from '../../kit/order-builders.ts';
import { expectApproved } from '../../kit/risk-expectations.ts';
import { aRiskView } from '../../kit/risk-view-builder.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';

// A modification of a partly filled order adds only what it leaves unfilled (`unfilledQty`):
// the filled part is in the position already. maxPosition's own case is in exposure-checks.test.ts.
describe('modify of a partly filled order, sized by what it leaves unfilled', () => {
  it('REDUCING: requoting a partly filled closing sell (10, 6 filled, position 4 left) is risk-reducing', () => {
    const view = aRiskView();
    view.setPosition(BTC, '4');
    const sell = anOrder({ side: 'SELL', orderQty: D('10'), executedQty: D('6'), clientOrderId: 'close' });
    view.orders = [{ strategyId: 's1', order: { ...sell, orderState: 'PARTIALLY_FILLED' } }];
    const gate = new RiskGate();
    gate.reduceOnly('drawdown');
    const modify = { kind: 'modifyOrder', ref: 'm', target: 'close', sym: BTC, price: D('101') } as const;
    const decision = gate.evaluate(from(modify), view);
    // What is left to sell (4) is exactly the position: it only takes risk off.
    expect(decision.kind === 'denied' ? `${decision.check}: ${decision.reason}` : 'approved').toBe(
      'approved',
    );
  });

  it('maxGrossExposure: requoting a bid of 1 filled 0.6 adds 0.4 x price, not 1 x price', () => {
    const view = aRiskView();
    view.setPosition(BTC, '0.6');
    view.gross = D('60'); // 0.6 x 100
    const bid = anOrder({ orderQty: D('1'), executedQty: D('0.6'), clientOrderId: 'x' });
    view.orders = [{ strategyId: 's1', order: { ...bid, orderState: 'PARTIALLY_FILLED' } }];
    const modify = { kind: 'modifyOrder', ref: 'm', target: 'x', sym: BTC, price: D('99') } as const;
    // Filled in full: 60 + 0.4 x 99 = 99.6, within 100. The gate adds 1 x 99 = 99 -> 159.
    expectApproved(modify, view, { limits: { maxGrossExposure: '100' } });
  });
});
