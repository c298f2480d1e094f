import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CONDITION_CODES,
  type ConditionCode,
  D,
  type OrderCondition,
  type OrderSide,
  type OrderType,
  type PlaceOrderIntent,
  POSITION_SIDES,
  parseSym,
  TIMES_IN_FORCE,
} from '../../../core/model/index.ts';
import { cryptoConditionsCheck } from '../../../core/risk/index.ts';
import { anEthSpot, anInstrument } from '../../kit/instrument-builders.ts';
import { aLimitOrder, aMarketOrder } from '../../kit/intent-builders.ts';
import { expectApproved, expectDenied } from '../../kit/risk-expectations.ts';
import { aRiskView, type FakeRiskView } from '../../kit/risk-view-builder.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const ETH_SPOT = 'OKX_SPOT_ETH_USDT';
const AAPL = 'US_EQUITY_AAPL';
const MSFT = 'US_EQUITY_MSFT';

/** A complete condition of each code, one conditionArguments passes. */
const COMPLETE: Record<ConditionCode, OrderCondition> = {
  UT: { code: 'UT', triggerPrice: D('105') },
  DT: { code: 'DT', triggerPrice: D('95') },
  SL: { code: 'SL', triggerPrice: D('95') },
  OCO: { code: 'OCO', triggerPrice: D('105'), stopPrice: D('95') },
  TIME: { code: 'TIME', timeToSend: '2026-01-05 09:30:00' },
  HOLD: { code: 'HOLD' },
};

/** A risk view over BTC (perpetual), ETH (spot), AAPL and MSFT (US equities). */
function mixedView(): FakeRiskView {
  const view = aRiskView();
  const equity = { tickSize: D('0.01'), lotSize: D(1), minSize: D(1), minNotional: D(1) };
  view.instruments.set(ETH_SPOT, anEthSpot());
  view.instruments.set(AAPL, anInstrument(AAPL, equity));
  view.instruments.set(MSFT, anInstrument(MSFT, equity));
  for (const sym of [ETH_SPOT, AAPL, MSFT]) view.references.set(sym, 100);
  return view;
}

/** The denial's reason, as the rule words it. */
function reasonFor(ref: string, sym: string, code: ConditionCode): string {
  return `order ${ref} on ${sym} is a ${code} conditional order, but conditions are PLACE_ORDER's (US equities) and the venue's crypto orders carry none: place an algo order (ctx.order.algo) instead`;
}

describe('cryptoConditions', () => {
  it('denies each condition code on a crypto sym, perpetual or spot, and says to place an algo order', () => {
    for (const sym of [BTC, ETH_SPOT]) {
      for (const code of CONDITION_CODES) {
        const reason = expectDenied(
          'cryptoConditions',
          aLimitOrder({ sym, ref: `c-${code}`, condition: COMPLETE[code] }),
          mixedView(),
        );
        expect(reason).toBe(reasonFor(`c-${code}`, sym, code));
      }
    }
  });

  it('denies a conditional market order on crypto too', () => {
    const reason = expectDenied(
      'cryptoConditions',
      aMarketOrder({ ref: 'm', condition: COMPLETE.SL }),
      mixedView(),
    );
    expect(reason).toBe(reasonFor('m', BTC, 'SL'));
  });

  it('passes each conditional order on a US equity', () => {
    for (const code of CONDITION_CODES) {
      expectApproved(
        aLimitOrder({ sym: AAPL, qty: D(10), timeInForce: 'DAY', condition: COMPLETE[code] }),
        mixedView(),
      );
    }
  });

  it('passes a plain order on crypto', () => {
    expectApproved(aLimitOrder(), mixedView());
    expectApproved(aMarketOrder(), mixedView());
    expectApproved(aLimitOrder({ sym: ETH_SPOT }), mixedView());
  });

  it('leaves an unknown sym to instrumentKnown', () => {
    const order = aLimitOrder({ sym: 'EDX_PERP_NOPE_USDT', condition: COMPLETE.SL });
    expectDenied('instrumentKnown', order, mixedView());
    expect(
      cryptoConditionsCheck.run({
        strategyId: 's1',
        intent: order,
        view: mixedView(),
        limits: {},
        scope: 'portfolio',
      }),
    ).toBeUndefined();
  });

  it('denies a placeOrder intent exactly when it has a condition and its sym is crypto', () => {
    const condition = fc.record(
      {
        code: fc.constantFrom(...CONDITION_CODES),
        triggerPrice: fc.constantFrom(D('0'), D('95'), D('105.5')),
        stopPrice: fc.constantFrom(D('0'), D('95')),
        timeToSend: fc.constantFrom('2026-01-05 09:30:00', '2026-01-05T09:30:00', ''),
      },
      { requiredKeys: ['code'] },
    );
    const intent = fc
      .record(
        {
          ref: fc.string({ minLength: 1, maxLength: 45 }),
          sym: fc.constantFrom(BTC, ETH_SPOT, AAPL, MSFT),
          side: fc.constantFrom<OrderSide>('BUY', 'SELL'),
          orderType: fc.constantFrom<OrderType>('LIMIT', 'MARKET'),
          qty: fc.constantFrom(D('0'), D('0.001'), D('1'), D('10')),
          price: fc.constantFrom(D('0'), D('100'), D('190.01')),
          timeInForce: fc.constantFrom(...TIMES_IN_FORCE),
          reduceOnly: fc.boolean(),
          positionSide: fc.constantFrom(...POSITION_SIDES),
          condition,
          extendedTrading: fc.boolean(),
        },
        {
          requiredKeys: [
            'ref',
            'sym',
            'side',
            'orderType',
            'qty',
            'timeInForce',
            'reduceOnly',
            'positionSide',
          ],
        },
      )
      .map((fields): PlaceOrderIntent => ({ kind: 'placeOrder', ...fields }));
    fc.assert(
      fc.property(intent, (order) => {
        const denial = cryptoConditionsCheck.run({
          strategyId: 's1',
          intent: order,
          view: mixedView(),
          limits: {},
          scope: 'portfolio',
        });
        const expected =
          order.condition !== undefined && parseSym(order.sym).kind === 'crypto'
            ? { check: 'cryptoConditions', reason: reasonFor(order.ref, order.sym, order.condition.code) }
            : undefined;
        expect(denial).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });
});
