import { describe, expect, it } from 'vitest';
import { D, type TpSl } from '../../../core/model/index.ts';
import { aLimitOrder, aMarketOrder } from '../../kit/intent-builders.ts';
import { expectApproved, expectDenied } from '../../kit/risk-expectations.ts';
import { aRiskView } from '../../kit/risk-view-builder.ts';

const leg = (triggerPrice: string): TpSl => ({
  triggerPrice: D(triggerPrice),
  triggerType: 'LastPrice',
  price: D('0'),
});

describe('tpSlSide', () => {
  it('denies a limit order whose tp or sl triggers on the wrong side of its price, as the paper venue refuses it', () => {
    const buy = { side: 'BUY' as const, price: D('100') };
    expect(expectDenied('tpSlSide', aLimitOrder({ ...buy, tp: leg('95') }), aRiskView())).toContain(
      'tpTriggerPrice 95 must be above the limit price 100 of a BUY',
    );
    expect(expectDenied('tpSlSide', aLimitOrder({ ...buy, sl: leg('100') }), aRiskView())).toContain(
      'slTriggerPrice 100 must be below the limit price 100 of a BUY',
    );
    const sell = { side: 'SELL' as const, price: D('100') };
    expectDenied('tpSlSide', aLimitOrder({ ...sell, tp: leg('105') }), aRiskView());
    expectDenied('tpSlSide', aLimitOrder({ ...sell, sl: leg('95') }), aRiskView());
  });

  it('passes legs on the right sides, and a market order (no price to check against)', () => {
    expectApproved(aLimitOrder({ side: 'BUY', price: D('100'), tp: leg('110'), sl: leg('90') }), aRiskView());
    expectApproved(
      aLimitOrder({ side: 'SELL', price: D('100'), tp: leg('90'), sl: leg('110') }),
      aRiskView(),
    );
    expectApproved(aMarketOrder({ side: 'BUY', tp: leg('1'), sl: leg('1000000') }), aRiskView());
  });
});
