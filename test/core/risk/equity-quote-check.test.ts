import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { D } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aMarketOrder } from '../../kit/intent-builders.ts';
import { expectApproved, expectDenied } from '../../kit/risk-expectations.ts';
import { aRiskView, type FakeRiskView } from '../../kit/risk-view-builder.ts';
import { aQuote } from '../../kit/sim-builders.ts';
import { aStrategyRig } from '../../kit/strategy-rig.ts';

const AAPL = 'US_EQUITY_AAPL';
const T0 = Date.UTC(2026, 0, 6, 15); // Tue 10:00 New York
const aapl = anInstrument(AAPL, {
  lotSize: D('1'),
  minSize: D('1'),
  tickSize: D('0.01'),
  minNotional: D('0'),
  settleAsset: 'USD',
});

function equityView(): FakeRiskView {
  const view = aRiskView();
  view.instruments.set(AAPL, aapl);
  view.references.set(AAPL, 190.01);
  return view;
}

describe('equityQuoteQty', () => {
  it('denies a US-equity market order sized by quoteOrderQty and says to size it in shares', () => {
    const order = aMarketOrder({ sym: AAPL, qty: D(0), quoteOrderQty: D('1000'), timeInForce: 'DAY' });
    const reason = expectDenied('equityQuoteQty', order, equityView());
    expect(reason).toContain('PLACE_ORDER (US equities) carries a whole number of shares only');
  });

  it('leaves an equity order with both a qty and a quoteOrderQty to orderQty, and passes a crypto quote order', () => {
    expectDenied(
      'orderQty',
      aMarketOrder({ sym: AAPL, qty: D(5), quoteOrderQty: D('1000'), timeInForce: 'DAY' }),
      equityView(),
    );
    expectApproved(aMarketOrder({ sym: AAPL, qty: D(5), timeInForce: 'DAY' }), equityView());
    expectApproved(aMarketOrder({ qty: D(0), quoteOrderQty: D('50') }), aRiskView());
  });

  it('in a backtest, ctx.order.market({ quoteQty }) on a US equity is denied and buys nothing', async () => {
    let sent = false;
    const s = defineStrategy({
      name: 'probe',
      params: z.object({}),
      onQuote: (ctx) => {
        if (sent) return;
        sent = true;
        return ctx.order.market({ sym: AAPL, side: 'BUY', quoteQty: 1000 });
      },
    });
    const rig = await aStrategyRig([{ id: 's', strategy: s, params: {} }], {
      start: T0,
      instruments: [aapl],
      cash: 0,
      holdings: { USD: 10_000 },
    });
    rig.push(aQuote(T0 + 1000, 190, 500, 190.02, 500, AAPL));
    rig.push(aQuote(T0 + 2000, 190, 500, 190.02, 500, AAPL));
    expect(rig.denials.map((d) => d.check)).toEqual(['equityQuoteQty']);
    expect((await rig.venueQty(AAPL)).toFixed()).toBe('0');
  });
});
