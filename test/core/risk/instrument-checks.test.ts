import { describe, expect, it } from 'vitest';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aLimitOrder } from '../../kit/intent-builders.ts';
import { expectApproved, expectDenied } from '../../kit/risk-expectations.ts';
import { aRiskView } from '../../kit/risk-view-builder.ts';

describe('instrument checks', () => {
  it('denies an order on an unknown sym and names it', () => {
    const reason = expectDenied('instrumentKnown', aLimitOrder({ sym: 'OKX_PERP_DOGE_USDT' }), aRiskView());
    expect(reason).toContain('OKX_PERP_DOGE_USDT is not a known instrument');
  });

  it('passes an order on a known sym', () => {
    expectApproved(aLimitOrder(), aRiskView());
  });

  it('denies an order on a HALTED sym', () => {
    const view = aRiskView();
    view.instruments.set('BINANCE_PERP_BTC_USDT', anInstrument('BINANCE_PERP_BTC_USDT', { state: 'HALTED' }));
    expectDenied('instrumentTrading', aLimitOrder(), view);
  });

  it('passes an order on a TRADING sym', () => {
    expectApproved(aLimitOrder(), aRiskView());
  });

  it('checks every sym of a closePositions list', () => {
    const view = aRiskView();
    expectDenied(
      'instrumentKnown',
      { kind: 'closePositions', ref: 'c', symList: ['BINANCE_PERP_BTC_USDT', 'X'] },
      view,
    );
  });
});
