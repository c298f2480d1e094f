import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { aLimitOrder, aMarketOrder } from '../../kit/intent-builders.ts';
import { anOrder } from '../../kit/order-builders.ts';
import { expectApproved, expectDenied } from '../../kit/risk-expectations.ts';
import { aRiskView } from '../../kit/risk-view-builder.ts';

describe('PLACE_ORDER argument checks', () => {
  describe('clientOrderId', () => {
    it('denies a ref longer than the 40 characters of a clientOrderId', () => {
      expectDenied('clientOrderId', aLimitOrder({ ref: 'x'.repeat(41) }), aRiskView());
    });
    it('passes a 40-character ref', () => {
      expectApproved(aLimitOrder({ ref: 'x'.repeat(40) }), aRiskView());
    });
  });

  describe('orderPrice', () => {
    it('denies a market order that carries a non-zero price', () => {
      const reason = expectDenied('orderPrice', aMarketOrder({ price: D('100') }), aRiskView());
      expect(reason).toContain('must be "0" or absent');
    });
    it('passes a market order with price "0" or no price', () => {
      expectApproved(aMarketOrder({ price: D('0') }), aRiskView());
      expectApproved(aMarketOrder(), aRiskView());
    });
    it('denies a limit order without a price', () => {
      expectDenied('orderPrice', aLimitOrder({ price: undefined }), aRiskView());
    });
    it('denies a limit order priced at zero (decimal.js counts zero as positive)', () => {
      expectDenied('orderPrice', aLimitOrder({ price: D('0') }), aRiskView());
      expectDenied('orderPrice', aLimitOrder({ price: D('-0') }), aRiskView());
    });
    it('denies a modification to price zero and passes one to a positive price', () => {
      const view = aRiskView();
      view.orders = [{ strategyId: 's1', order: anOrder({ clientOrderId: 'mine' }) }];
      const modify = { kind: 'modifyOrder', ref: 'm', target: 'mine', sym: 'BINANCE_PERP_BTC_USDT' } as const;
      expectDenied('orderPrice', { ...modify, price: D('0') }, view);
      expectApproved({ ...modify, price: D('99') }, view);
    });
  });

  describe('gtdExpiryDate', () => {
    it('denies GTD without an expiry date', () => {
      expectDenied('gtdExpiryDate', aLimitOrder({ timeInForce: 'GTD' }), aRiskView());
    });
    it('denies an expiry date that is not YYYY-MM-DD', () => {
      expectDenied(
        'gtdExpiryDate',
        aLimitOrder({ timeInForce: 'GTD', expiryDate: '2026/01/31' }),
        aRiskView(),
      );
      expectDenied(
        'gtdExpiryDate',
        aLimitOrder({ timeInForce: 'GTD', expiryDate: '2026-02-30' }),
        aRiskView(),
      );
    });
    it('denies an expiry date already past on the run clock', () => {
      expectDenied(
        'gtdExpiryDate',
        aLimitOrder({ timeInForce: 'GTD', expiryDate: '2026-01-04' }),
        aRiskView(),
      );
    });
    it('passes GTD with a valid date from today on', () => {
      expectApproved(aLimitOrder({ timeInForce: 'GTD', expiryDate: '2026-01-05' }), aRiskView());
    });
  });

  describe('conditionArguments', () => {
    it('denies UT, DT, SL and OCO without a triggerPrice', () => {
      for (const code of ['UT', 'DT', 'SL', 'OCO'] as const) {
        expectDenied('conditionArguments', aLimitOrder({ condition: { code } }), aRiskView());
      }
    });
    it('denies OCO without a stopPrice', () => {
      const reason = expectDenied(
        'conditionArguments',
        aLimitOrder({ condition: { code: 'OCO', triggerPrice: D('101') } }),
        aRiskView(),
      );
      expect(reason).toContain('stopPrice');
    });
    it('denies TIME without a yyyy-MM-dd HH:mm:ss timeToSend', () => {
      expectDenied(
        'conditionArguments',
        aLimitOrder({ condition: { code: 'TIME', timeToSend: '2026-01-05T14:30:00' } }),
        aRiskView(),
      );
    });
    it('denies a triggerPrice or an OCO stopPrice of zero', () => {
      for (const code of ['UT', 'DT', 'SL', 'OCO'] as const) {
        expectDenied(
          'conditionArguments',
          aLimitOrder({ condition: { code, triggerPrice: D('0'), stopPrice: D('95') } }),
          aRiskView(),
        );
      }
      const reason = expectDenied(
        'conditionArguments',
        aLimitOrder({ condition: { code: 'OCO', triggerPrice: D('105'), stopPrice: D('0') } }),
        aRiskView(),
      );
      expect(reason).toContain('positive stopPrice');
    });
    it('passes complete conditional orders', () => {
      expectApproved(aLimitOrder({ condition: { code: 'SL', triggerPrice: D('95') } }), aRiskView());
      expectApproved(
        aLimitOrder({ condition: { code: 'OCO', triggerPrice: D('105'), stopPrice: D('95') } }),
        aRiskView(),
      );
      expectApproved(
        aLimitOrder({ condition: { code: 'TIME', timeToSend: '2026-01-05 14:30:00' } }),
        aRiskView(),
      );
      expectApproved(aLimitOrder({ condition: { code: 'HOLD' } }), aRiskView());
    });
  });

  describe('positionSide', () => {
    it('denies positionSide NONE in BOTH mode', () => {
      const view = aRiskView();
      view.mode = 'BOTH';
      expectDenied('positionSide', aLimitOrder(), view);
    });
    it('denies LONG in NET mode', () => {
      expectDenied('positionSide', aLimitOrder({ positionSide: 'LONG' }), aRiskView());
    });
    it('passes LONG in BOTH mode and NONE in NET mode', () => {
      const view = aRiskView();
      view.mode = 'BOTH';
      expectApproved(aLimitOrder({ positionSide: 'LONG' }), view);
      expectApproved(aLimitOrder(), aRiskView());
    });
  });
});
