import { describe, expect, it } from 'vitest';
import { D, type PlaceOrderIntent } from '../../../core/model/index.ts';
import { anAlgoOrder } from '../../kit/algo-order-builders.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aLimitOrder, aMarketOrder, aSellStop } from '../../kit/intent-builders.ts';
import { anOrder } from '../../kit/order-builders.ts';
import { expectApproved, expectDenied } from '../../kit/risk-expectations.ts';
import { aRiskView, type FakeRiskView } from '../../kit/risk-view-builder.ts';

const AAPL = 'US_EQUITY_AAPL';

/** A limit order on AAPL: whole shares, an equity price. */
function anEquityOrder(overrides: Partial<PlaceOrderIntent> = {}): PlaceOrderIntent {
  return aLimitOrder({ sym: AAPL, qty: D(10), price: D('190'), ...overrides });
}

/** A risk view that also knows AAPL. */
function equityView(): FakeRiskView {
  const view = aRiskView();
  view.instruments.set(
    AAPL,
    anInstrument(AAPL, { tickSize: D('0.01'), lotSize: D(1), minSize: D(1), minNotional: D(1) }),
  );
  return view;
}

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

  describe('orderQty', () => {
    it('denies a negative qty as not a positive number, not as below minSize', () => {
      const reason = expectDenied('orderQty', aMarketOrder({ qty: D('-0.115') }), aRiskView());
      expect(reason).toContain('qty must be a positive number, got -0.115');
    });
    it('denies a NaN or infinite qty of an order and a negative one of a modify', () => {
      const view = aRiskView();
      view.orders = [{ strategyId: 's1', order: anOrder({ clientOrderId: 'mine' }) }];
      expect(expectDenied('orderQty', aLimitOrder({ qty: new D(Number.NaN) }), view)).toContain('got NaN');
      expect(expectDenied('orderQty', aLimitOrder({ qty: new D(Number.POSITIVE_INFINITY) }), view)).toContain(
        'got Infinity',
      );
      const modify = { kind: 'modifyOrder', ref: 'm', target: 'mine', sym: 'BINANCE_PERP_BTC_USDT' } as const;
      expectDenied('orderQty', { ...modify, qty: D(-1) }, view);
      expectApproved({ ...modify, qty: D(2) }, view);
    });
    it('passes a quote-sized market order, whose qty is 0', () => {
      expectApproved(aMarketOrder({ qty: D(0), quoteOrderQty: D(100) }), aRiskView());
    });
    it('denies a negative, NaN or infinite quoteQty as not a positive number, not as below minSize', () => {
      const reason = expectDenied(
        'orderQty',
        aMarketOrder({ qty: D(0), quoteOrderQty: D(-100) }),
        aRiskView(),
      );
      expect(reason).toContain('quoteQty (quoteOrderQty) must be a positive number, got -100');
      expectDenied('orderQty', aMarketOrder({ qty: D(0), quoteOrderQty: new D(Number.NaN) }), aRiskView());
      expectDenied(
        'orderQty',
        aMarketOrder({ qty: D(0), quoteOrderQty: new D(Number.POSITIVE_INFINITY) }),
        aRiskView(),
      );
    });
    it('denies an order that sets both a qty and a quoteQty: the venue does not say which one sizes it', () => {
      const intent = aMarketOrder({ qty: D('0.001'), quoteOrderQty: D(500000) });
      const reason = expectDenied('orderQty', intent, aRiskView(), {
        limits: { maxNotionalPerOrder: 200000 },
      });
      expect(reason).toContain('sets both qty 0.001 and quoteQty (quoteOrderQty) 500000');
    });
  });

  describe('loanAmount', () => {
    it('denies a borrow or repay of a zero, negative or NaN amount and passes a positive one', () => {
      const loan = { ref: 'l', exchange: 'BINANCE', coin: 'USDT' } as const;
      const reason = expectDenied('loanAmount', { kind: 'borrow', ...loan, amount: D(-5) }, aRiskView());
      expect(reason).toBe('borrow l: amount must be a positive number, got -5');
      expectDenied('loanAmount', { kind: 'repay', ...loan, amount: D(0) }, aRiskView());
      expectDenied('loanAmount', { kind: 'borrow', ...loan, amount: new D(Number.NaN) }, aRiskView());
      expectApproved({ kind: 'borrow', ...loan, amount: D(5) }, aRiskView());
    });
  });

  describe('orderPrice of trigger prices', () => {
    it('denies an algo order whose triggerPrice is not a positive number, or whose price is negative', () => {
      const reason = expectDenied('orderPrice', aSellStop({ triggerPrice: D(-1) }), aRiskView());
      expect(reason).toBe('placeAlgoOrder sl: triggerPrice must be a positive number, got -1');
      expectDenied('orderPrice', aSellStop({ triggerPrice: D(0) }), aRiskView());
      expectDenied('orderPrice', aSellStop({ triggerPrice: new D(Number.NaN) }), aRiskView());
      expect(expectDenied('orderPrice', aSellStop({ price: D(-89) }), aRiskView())).toContain(
        'price must be 0 (market) or a positive number, got -89',
      );
      expectApproved(aSellStop({ price: D(89) }), aRiskView());
    });
    it('denies a replacement that sets a triggerPrice that is not a positive number', () => {
      const view = aRiskView();
      view.algoOrders = [{ strategyId: 's1', algo: anAlgoOrder() }];
      const replace = {
        kind: 'replaceAlgoOrder',
        ref: 'r',
        target: 'algo-1',
        sym: 'BINANCE_PERP_BTC_USDT',
      } as const;
      expectDenied('orderPrice', { ...replace, triggerPrice: D(-1) }, view);
      expectApproved({ ...replace, triggerPrice: D(91) }, view);
    });
    it('denies an order whose take-profit or stop-loss trigger is not a positive number', () => {
      const sl = { triggerPrice: D(-90), triggerType: 'LastPrice', price: D(0) } as const;
      const reason = expectDenied('orderPrice', aLimitOrder({ sl }), aRiskView());
      expect(reason).toContain('sl triggerPrice must be a positive number, got -90');
    });
  });

  describe('orderPrice of a number that is not one', () => {
    it('denies a NaN limit price and a negative modify price, saying what it got', () => {
      expect(expectDenied('orderPrice', aLimitOrder({ price: new D(Number.NaN) }), aRiskView())).toContain(
        'price must be a positive number, got NaN',
      );
      const view = aRiskView();
      view.orders = [{ strategyId: 's1', order: anOrder({ clientOrderId: 'mine' }) }];
      const modify = { kind: 'modifyOrder', ref: 'm', target: 'mine', sym: 'BINANCE_PERP_BTC_USDT' } as const;
      expect(expectDenied('orderPrice', { ...modify, price: D(-5) }, view)).toContain(
        'price must be a positive number, got -5',
      );
    });
  });

  describe('timeInForce', () => {
    it('denies DAY and GTD on a crypto sym: the venue would rest them as GTC', () => {
      const reason = expectDenied('timeInForce', aLimitOrder({ timeInForce: 'DAY' }), aRiskView());
      expect(reason).toContain('use GTC, IOC, FOK, GTX, FAK');
      expectDenied('timeInForce', aLimitOrder({ timeInForce: 'GTD', expiryDate: '2026-01-05' }), aRiskView());
    });
    it('denies post-only (GTX) on an equity: PLACE_ORDER has no such validity', () => {
      expectDenied('timeInForce', anEquityOrder({ timeInForce: 'GTX' }), equityView());
    });
    it('passes every time in force the venue takes for the kind', () => {
      for (const timeInForce of ['GTC', 'IOC', 'FOK', 'GTX', 'FAK'] as const)
        expectApproved(aLimitOrder({ timeInForce }), aRiskView());
      for (const timeInForce of ['DAY', 'FAK', 'IOC', 'FOK', 'GTC'] as const)
        expectApproved(anEquityOrder({ timeInForce }), equityView());
    });
  });

  describe('gtdExpiryDate', () => {
    it('denies GTD without an expiry date', () => {
      expectDenied('gtdExpiryDate', anEquityOrder({ timeInForce: 'GTD' }), equityView());
    });
    it('denies an expiry date that is not YYYY-MM-DD', () => {
      expectDenied(
        'gtdExpiryDate',
        anEquityOrder({ timeInForce: 'GTD', expiryDate: '2026/01/31' }),
        equityView(),
      );
      expectDenied(
        'gtdExpiryDate',
        anEquityOrder({ timeInForce: 'GTD', expiryDate: '2026-02-30' }),
        equityView(),
      );
    });
    it('denies an expiry date already past on the run clock', () => {
      expectDenied(
        'gtdExpiryDate',
        anEquityOrder({ timeInForce: 'GTD', expiryDate: '2026-01-04' }),
        equityView(),
      );
    });
    it('passes GTD with a valid date from today on', () => {
      expectApproved(anEquityOrder({ timeInForce: 'GTD', expiryDate: '2026-01-05' }), equityView());
    });
    it("reads an equity's date in New York: today's GTD placed after 19:00 New York (midnight UTC) passes", () => {
      const view = equityView();
      view.time = Date.parse('2024-03-09T00:30:00Z');
      const today = anEquityOrder({ timeInForce: 'GTD', expiryDate: '2024-03-08', extendedTrading: true });
      expectApproved(today, view);
      const reason = expectDenied('gtdExpiryDate', { ...today, expiryDate: '2024-03-07' }, view);
      expect(reason).toContain('already past (New York)');
    });
    it("denies an equity's GTD date once New York's day has ended", () => {
      const view = equityView();
      view.time = Date.parse('2024-03-09T05:30:00Z');
      expectDenied('gtdExpiryDate', anEquityOrder({ timeInForce: 'GTD', expiryDate: '2024-03-08' }), view);
      expectApproved(anEquityOrder({ timeInForce: 'GTD', expiryDate: '2024-03-09' }), view);
    });
    it('denies an expiry date on an order that is not GTD', () => {
      expectDenied('gtdExpiryDate', aLimitOrder({ expiryDate: '2026-01-05' }), aRiskView());
    });
  });

  describe('conditionArguments', () => {
    it('denies UT, DT, SL and OCO without a triggerPrice', () => {
      for (const code of ['UT', 'DT', 'SL', 'OCO'] as const) {
        expectDenied('conditionArguments', anEquityOrder({ condition: { code } }), equityView());
      }
    });
    it('denies OCO without a stopPrice', () => {
      const reason = expectDenied(
        'conditionArguments',
        anEquityOrder({ condition: { code: 'OCO', triggerPrice: D('191') } }),
        equityView(),
      );
      expect(reason).toContain('stopPrice');
    });
    it('denies TIME without a yyyy-MM-dd HH:mm:ss timeToSend', () => {
      expectDenied(
        'conditionArguments',
        anEquityOrder({ condition: { code: 'TIME', timeToSend: '2026-01-05T14:30:00' } }),
        equityView(),
      );
    });
    it('denies a triggerPrice or an OCO stopPrice of zero', () => {
      for (const code of ['UT', 'DT', 'SL', 'OCO'] as const) {
        expectDenied(
          'conditionArguments',
          anEquityOrder({ condition: { code, triggerPrice: D('0'), stopPrice: D('185') } }),
          equityView(),
        );
      }
      const reason = expectDenied(
        'conditionArguments',
        anEquityOrder({ condition: { code: 'OCO', triggerPrice: D('195'), stopPrice: D('0') } }),
        equityView(),
      );
      expect(reason).toContain('positive stopPrice');
    });
    it('passes complete conditional orders (of a US equity: crypto orders carry no condition)', () => {
      expectApproved(anEquityOrder({ condition: { code: 'SL', triggerPrice: D('185') } }), equityView());
      expectApproved(
        anEquityOrder({ condition: { code: 'OCO', triggerPrice: D('195'), stopPrice: D('185') } }),
        equityView(),
      );
      expectApproved(
        anEquityOrder({ condition: { code: 'TIME', timeToSend: '2026-01-05 14:30:00' } }),
        equityView(),
      );
      expectApproved(anEquityOrder({ condition: { code: 'HOLD' } }), equityView());
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
    it('denies a closePosition naming NONE in BOTH mode (it names no one position: the venue refuses it with 400001) and passes one naming its leg', () => {
      const view = aRiskView();
      view.mode = 'BOTH';
      const sym = 'BINANCE_PERP_BTC_USDT';
      view.setPosition(sym, '1', 'LONG');
      const close = (positionSide: 'NONE' | 'LONG') =>
        ({ kind: 'closePosition', ref: 'cp', sym, positionSide }) as const;
      expectDenied('positionSide', close('NONE'), view);
      expectApproved(close('LONG'), view);
    });
    it('passes LONG in BOTH mode and NONE in NET mode', () => {
      const view = aRiskView();
      view.mode = 'BOTH';
      expectApproved(aLimitOrder({ positionSide: 'LONG' }), view);
      expectApproved(aLimitOrder(), aRiskView());
    });
  });
});
