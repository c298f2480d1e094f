import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aLimitOrder } from '../../kit/intent-builders.ts';
import { expectApproved, expectDenied } from '../../kit/risk-expectations.ts';
import { aRiskView } from '../../kit/risk-view-builder.ts';

describe('instrument checks', () => {
  it('denies an order on an unknown sym and names it', () => {
    const reason = expectDenied('instrumentKnown', aLimitOrder({ sym: 'OKX_PERP_DOGE_USDT' }), aRiskView());
    expect(reason).toContain('OKX_PERP_DOGE_USDT is not a known instrument');
  });

  it('says plainly that a modify of an unknown order names no instrument, rather than an empty sym', () => {
    const reason = expectDenied(
      'instrumentKnown',
      { kind: 'modifyOrder', ref: 'm-1', target: 'lc-race-1', sym: '', price: D(95) },
      aRiskView(),
    );
    expect(reason).toBe(
      'modifyOrder m-1 names no instrument: its target lc-race-1 is no order this run knows (never placed, denied, or ended long ago), so it has no sym, and it cannot be sent',
    );
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

  it('checks every sym of a closePositions list and names the first that fails', () => {
    const view = aRiskView();
    const reason = expectDenied(
      'instrumentKnown',
      { kind: 'closePositions', ref: 'c', symList: ['BINANCE_PERP_BTC_USDT', 'X', 'Y'] },
      view,
    );
    expect(reason).toBe('X is not a known instrument, so closePositions c cannot be sent');
    view.instruments.set('OKX_PERP_HALT_USDT', anInstrument('OKX_PERP_HALT_USDT', { state: 'CLOSED' }));
    const closed = expectDenied(
      'instrumentTrading',
      { kind: 'closePositions', ref: 'c', symList: ['BINANCE_PERP_BTC_USDT', 'OKX_PERP_HALT_USDT'] },
      view,
    );
    expect(closed).toBe('OKX_PERP_HALT_USDT is CLOSED, not TRADING, so closePositions c cannot be sent');
  });

  it('names a HALTED sym of a modify', () => {
    const view = aRiskView();
    view.instruments.set('BINANCE_PERP_BTC_USDT', anInstrument('BINANCE_PERP_BTC_USDT', { state: 'HALTED' }));
    const modify = { kind: 'modifyOrder', ref: 'm', target: 'o', sym: 'BINANCE_PERP_BTC_USDT' } as const;
    expect(expectDenied('instrumentTrading', modify, view)).toBe(
      'BINANCE_PERP_BTC_USDT is HALTED, not TRADING, so modifyOrder m cannot be sent',
    );
  });
});
