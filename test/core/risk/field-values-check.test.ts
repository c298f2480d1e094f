import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ALGO_CONDITION_TYPES,
  ALGO_ORDER_TYPES,
  CONDITION_CODES,
  D,
  type Intent,
  ORDER_SIDES,
  ORDER_TYPES,
  POSITION_MODES,
  POSITION_SIDES,
  TIMES_IN_FORCE,
  TRIGGER_PRICE_TYPES,
} from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { aLimitOrder, aMarketOrder, aSellStop, from } from '../../kit/intent-builders.ts';
import { expectApproved, expectDenied } from '../../kit/risk-expectations.ts';
import { aRiskView } from '../../kit/risk-view-builder.ts';

/** One enumerated field of one intent: a valid intent, and the same intent with the field set to a value. */
interface FieldCase {
  readonly field: string;
  readonly allowed: readonly (string | boolean)[];
  readonly valid: Intent;
  readonly withValue: (value: unknown) => Intent;
}

const tp = { triggerPrice: D(110), triggerType: 'LastPrice' as const, price: D(0) };
const sl = { triggerPrice: D(90), triggerType: 'MarkPrice' as const, price: D(0) };
const close = {
  kind: 'closePosition',
  ref: 'c',
  sym: 'BINANCE_PERP_BTC_USDT',
  positionSide: 'NONE',
} as const;
const mode = { kind: 'setPositionMode', ref: 'm', positionMode: 'NET' } as const;
const stop = aSellStop({ reduceOnly: false });

const CASES: readonly FieldCase[] = [
  {
    field: 'side',
    allowed: ORDER_SIDES,
    valid: aLimitOrder(),
    withValue: (v) => aLimitOrder({ side: v as 'BUY' }),
  },
  {
    field: 'orderType',
    allowed: ORDER_TYPES,
    valid: aLimitOrder(),
    withValue: (v) => aLimitOrder({ orderType: v as 'LIMIT' }),
  },
  {
    field: 'timeInForce',
    allowed: TIMES_IN_FORCE,
    valid: aLimitOrder(),
    withValue: (v) => aLimitOrder({ timeInForce: v as 'GTC' }),
  },
  {
    field: 'positionSide',
    allowed: POSITION_SIDES,
    valid: aMarketOrder(),
    withValue: (v) => aMarketOrder({ positionSide: v as 'NONE' }),
  },
  {
    field: 'reduceOnly',
    allowed: [true, false],
    valid: aLimitOrder(),
    withValue: (v) => aLimitOrder({ reduceOnly: v as boolean }),
  },
  {
    field: 'tp.triggerType',
    allowed: TRIGGER_PRICE_TYPES,
    valid: aMarketOrder({ tp }),
    withValue: (v) => aMarketOrder({ tp: { ...tp, triggerType: v as 'LastPrice' } }),
  },
  {
    field: 'sl.triggerType',
    allowed: TRIGGER_PRICE_TYPES,
    valid: aMarketOrder({ sl }),
    withValue: (v) => aMarketOrder({ sl: { ...sl, triggerType: v as 'LastPrice' } }),
  },
  {
    field: 'condition.code',
    allowed: CONDITION_CODES,
    valid: aLimitOrder({ condition: { code: 'UT', triggerPrice: D(101) } }),
    withValue: (v) => aLimitOrder({ condition: { code: v as 'UT', triggerPrice: D(101) } }),
  },
  { field: 'side', allowed: ORDER_SIDES, valid: stop, withValue: (v) => ({ ...stop, side: v as 'BUY' }) },
  {
    field: 'algoOrderType',
    allowed: ALGO_ORDER_TYPES,
    valid: stop,
    withValue: (v) => ({ ...stop, algoOrderType: v as 'TRIGGER' }),
  },
  {
    field: 'conditionType',
    allowed: ALGO_CONDITION_TYPES,
    valid: stop,
    withValue: (v) => ({ ...stop, conditionType: v as 'GTE' }),
  },
  {
    field: 'triggerType',
    allowed: TRIGGER_PRICE_TYPES,
    valid: stop,
    withValue: (v) => ({ ...stop, triggerType: v as 'LastPrice' }),
  },
  {
    field: 'positionSide',
    allowed: POSITION_SIDES,
    valid: stop,
    withValue: (v) => ({ ...stop, positionSide: v as 'NONE' }),
  },
  {
    field: 'positionSide',
    allowed: POSITION_SIDES,
    valid: close,
    withValue: (v) => ({ ...close, positionSide: v as 'NONE' }),
  },
  {
    field: 'positionMode',
    allowed: POSITION_MODES,
    valid: mode,
    withValue: (v) => ({ ...mode, positionMode: v as 'NET' }),
  },
];

/** A value the field does not take: another case of an allowed value, or any other string, number or nothing. */
function outsider(allowed: readonly (string | boolean)[]): fc.Arbitrary<unknown> {
  const strings = allowed.filter((a): a is string => typeof a === 'string');
  return fc
    .oneof(
      fc.constantFrom(...(strings.length > 0 ? strings : ['true'])).map((a) => a.toLowerCase()),
      fc.constantFrom(...(strings.length > 0 ? strings : ['false'])).map((a) => ` ${a}`),
      fc.string({ maxLength: 8 }),
      fc.constantFrom(null, 0, 1),
      fc.constant(undefined),
    )
    .filter((value) => !allowed.includes(value as string));
}

describe('fieldValues: an intent field outside the values the venue takes is denied before anything reads it', () => {
  it('passes each valid intent (whatever other checks say of it)', () => {
    for (const { valid } of CASES) {
      const decision = new RiskGate().evaluate(from(valid), aRiskView());
      expect(decision.kind === 'denied' ? decision.check : decision.kind).not.toBe('fieldValues');
    }
    expectApproved(aLimitOrder(), aRiskView());
  });

  it('denies every other value of every enumerated field, naming the field and its values', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CASES).chain((c) => fc.tuple(fc.constant(c), outsider(c.allowed))),
        ([c, value]) => {
          const decision = new RiskGate().evaluate(from(c.withValue(value)), aRiskView());
          // An absent optional flag is the same as false: not a wrong value.
          if (c.field === 'reduceOnly' && value === undefined) return;
          expect(decision.kind === 'denied' ? decision.check : decision.kind).toBe('fieldValues');
          expect(decision.kind === 'denied' ? decision.reason : '').toContain(
            `${c.field} ${value === undefined ? 'is missing' : `${JSON.stringify(value)} is not`} one of ${c.allowed.join(', ')}`,
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it("denies a lower-case orderType 'limit' for its value, not for a missing limit price", () => {
    const reason = expectDenied('fieldValues', aLimitOrder({ orderType: 'limit' as 'LIMIT' }), aRiskView());
    expect(reason).toBe('placeOrder ref-1: orderType "limit" is not one of LIMIT, MARKET');
  });

  it("denies positionSide 'long' in BOTH mode (a third leg), as it does in NET mode", () => {
    const view = aRiskView();
    view.mode = 'BOTH';
    for (const m of ['BOTH', 'NET'] as const) {
      view.mode = m;
      expectDenied('fieldValues', aMarketOrder({ positionSide: 'long' as 'LONG' }), view);
    }
  });
});
