import { describe, expect, it } from 'vitest';
import { D, type PlaceOrderIntent, type TpSl } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aLimitOrder, aMarketOrder } from '../../kit/intent-builders.ts';
import { expectApproved, expectDenied } from '../../kit/risk-expectations.ts';
import { aRiskView, type FakeRiskView } from '../../kit/risk-view-builder.ts';

const AAPL = 'US_EQUITY_AAPL';
const LEG: TpSl = { triggerPrice: D('200'), triggerType: 'LastPrice', price: D('0') };

function equityView(): FakeRiskView {
  const view = aRiskView();
  view.instruments.set(
    AAPL,
    anInstrument(AAPL, { tickSize: D('0.01'), lotSize: D(1), minSize: D(1), minNotional: D(1) }),
  );
  return view;
}

function anEquityOrder(overrides: Partial<PlaceOrderIntent> = {}): PlaceOrderIntent {
  return aLimitOrder({ sym: AAPL, qty: D(10), price: D('190'), timeInForce: 'DAY', ...overrides });
}

describe('equityAttachments', () => {
  it('denies a US-equity order carrying a tp or sl and names the conditional order to use instead', () => {
    for (const attachment of [{ tp: LEG }, { sl: { ...LEG, triggerPrice: D('180') } }]) {
      const reason = expectDenied('equityAttachments', anEquityOrder(attachment), equityView());
      expect(reason).toContain('PLACE_ORDER (US equities) carries no attachments');
      expect(reason).toContain('conditional order (e.g. OCO, or SL) after the entry fills');
    }
  });

  it('names both legs of a bracket', () => {
    const reason = expectDenied(
      'equityAttachments',
      aMarketOrder({
        sym: AAPL,
        qty: D(10),
        timeInForce: 'DAY',
        tp: LEG,
        sl: { ...LEG, triggerPrice: D('180') },
      }),
      equityView(),
    );
    expect(reason).toContain('carries tp and sl');
  });

  it('passes an equity order without attachments and a crypto order with them', () => {
    expectApproved(anEquityOrder(), equityView());
    expectApproved(aLimitOrder({ tp: { ...LEG, triggerPrice: D('120') } }), aRiskView());
  });
});
