import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D, type Intent } from '../../../core/model/index.ts';
import { RiskGate, type RiskGateConfigInput } from '../../../core/risk/index.ts';
import { aLimitOrder, aMarketOrder, aSellStop, from } from '../../kit/intent-builders.ts';
import { anOrder } from '../../kit/order-builders.ts';
import { expectDenied } from '../../kit/risk-expectations.ts';
import { aRiskView, type FakeRiskView } from '../../kit/risk-view-builder.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const tp = { triggerPrice: D(110), triggerType: 'LastPrice' as const, price: D(0) };
const sl = { triggerPrice: D(90), triggerType: 'MarkPrice' as const, price: D(89) };

/** One valid intent of every kind the gate judges (cancels pass unread), nested fields included. */
const INTENTS: readonly Intent[] = [
  aLimitOrder({ tp, sl }),
  aMarketOrder({ quoteOrderQty: D(500), qty: D(0) }),
  aLimitOrder({ condition: { code: 'OCO', triggerPrice: D(101), stopPrice: D(99) } }),
  aLimitOrder({ timeInForce: 'GTD', expiryDate: '2026-01-31' }),
  aMarketOrder({
    reduceOnly: true,
    side: 'SELL',
    trailingStop: { offsetType: 'BPS', offset: D(20), activationPrice: D(105), triggerOn: 'last' },
  }),
  aSellStop(),
  aSellStop({ reduceOnly: false, side: 'BUY', conditionType: 'GTE', triggerPrice: D(105), price: D(106) }),
  { kind: 'modifyOrder', ref: 'm', target: 'open-1', sym: BTC, qty: D('0.5'), price: D(99) },
  { kind: 'replaceAlgoOrder', ref: 'ra', target: 'sl', sym: BTC, triggerPrice: D(91), qty: D(1) },
  { kind: 'closePosition', ref: 'c', sym: BTC, positionSide: 'NONE' },
  { kind: 'closePositions', ref: 'cs', symList: [BTC] },
  { kind: 'borrow', ref: 'b', exchange: 'BINANCE', coin: 'USDT', amount: D(10) },
  { kind: 'repay', ref: 'p', exchange: 'BINANCE', coin: 'USDT', amount: D(10) },
  { kind: 'setPositionMode', ref: 'pm', positionMode: 'BOTH' },
];

/** Every limit set, so every check of the chain reads the intent. */
const LIMITS: RiskGateConfigInput = {
  limits: {
    maxNotionalPerOrder: '100000',
    maxPositionQty: '5',
    maxGrossExposure: '100000',
    maxOpenOrders: 10,
    priceBand: 0.1,
    submitRate: { limit: 1000, intervalMs: 1000 },
    modifyRate: { limit: 1000, intervalMs: 1000 },
  },
};

/** The paths of an intent's fields but its kind, the fields of its nested objects too (`tp.price`). */
function pathsOf(value: object, prefix = ''): string[] {
  return Object.entries(value).flatMap(([key, field]) => {
    if (prefix === '' && key === 'kind') return [];
    const path = `${prefix}${key}`;
    const nested =
      typeof field === 'object' && field !== null && !Array.isArray(field) && !D.isDecimal(field)
        ? pathsOf(field, `${path}.`)
        : [];
    return [path, ...nested];
  });
}

/** A copy of an intent with the field at `path` set to `value`. */
function withField(intent: Intent, path: string, value: unknown): Intent {
  const [head, ...rest] = path.split('.') as [string, ...string[]];
  const record = intent as unknown as Record<string, unknown>;
  if (rest.length === 0) return { ...record, [head]: value } as unknown as Intent;
  return { ...record, [head]: withField(record[head] as Intent, rest.join('.'), value) } as unknown as Intent;
}

/** A view holding a long of 2, an open order `open-1` and the stop `sl`, so modifies and reductions read state. */
function aBusyView(): FakeRiskView {
  const view = aRiskView();
  view.setPosition(BTC, '2');
  view.orders = [{ strategyId: 's1', order: anOrder({ clientOrderId: 'open-1', sym: BTC }) }];
  return view;
}

/** Anything a plugin might put in a field: numbers, strings, Decimals (NaN too), lists, objects, nothing. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.anything(),
  fc.double(),
  fc.constantFrom(D(NaN), D(-1), D(0), D(Infinity), '93000', 5, null, undefined, [], {}),
);

describe('fieldTypes: a field of the wrong type is denied, never thrown on', () => {
  it('denies a qty or price given as a number instead of a Decimal, saying how to build the intent', () => {
    const limit = aLimitOrder();
    expect(expectDenied('fieldTypes', { ...limit, qty: 5 as never }, aRiskView())).toBe(
      'placeOrder ref-1: qty must be a Decimal (got the number 5): build intents with ctx.order',
    );
    expect(expectDenied('fieldTypes', { ...limit, price: 93000 as never }, aRiskView())).toBe(
      'placeOrder ref-1: price must be a Decimal (got the number 93000): build intents with ctx.order',
    );
    expect(expectDenied('fieldTypes', { ...limit, price: '93000' as never }, aRiskView())).toContain(
      'price must be a Decimal (got the string "93000")',
    );
  });

  it('denies it in REDUCING state too, where judging whether it reduces reads the qty', () => {
    const gate = new RiskGate();
    gate.reduceOnly('test');
    const view = aBusyView();
    const decision = gate.evaluate(from({ ...aLimitOrder({ side: 'SELL' }), qty: 1 as never }), view);
    expect(decision.kind === 'denied' ? decision.check : decision.kind).toBe('fieldTypes');
  });

  it('cannot be switched off: the checks after it read the fields', () => {
    expect(() => new RiskGate({ limits: { disabledChecks: ['fieldTypes' as never] } })).toThrow(RangeError);
  });

  it('returns a decision for any value in any field of any intent, in every trading state', () => {
    const cases = fc
      .constantFrom(...INTENTS)
      .chain((intent) =>
        fc.tuple(
          fc.constant(intent),
          fc.uniqueArray(fc.constantFrom(...pathsOf(intent)), { minLength: 1, maxLength: 2 }),
          fc.array(anyValue, { minLength: 2, maxLength: 2 }),
          fc.constantFrom('ACTIVE', 'REDUCING', 'HALTED'),
        ),
      );
    fc.assert(
      fc.property(cases, ([intent, paths, values, state]) => {
        const gate = new RiskGate(LIMITS);
        if (state === 'REDUCING') gate.reduceOnly('test');
        if (state === 'HALTED') gate.halt('test');
        const changed = paths.reduce((built, path, i) => withField(built, path, values[i]), intent);
        const decision = gate.evaluate(from(changed), aBusyView());
        expect(['approved', 'denied']).toContain(decision.kind);
      }),
      { numRuns: 2000 },
    );
  });

  it('denies every amount that is not a Decimal, whatever the trading state', () => {
    const amounts = INTENTS.flatMap((intent) =>
      pathsOf(intent)
        .filter((path) => D.isDecimal(path.split('.').reduce<unknown>((v, k) => (v as never)[k], intent)))
        .map((path) => ({ intent, path })),
    );
    const notDecimal = anyValue.filter((value) => value !== undefined && !D.isDecimal(value));
    fc.assert(
      fc.property(fc.constantFrom(...amounts), notDecimal, ({ intent, path }, value) => {
        const gate = new RiskGate(LIMITS);
        gate.reduceOnly('test');
        const decision = gate.evaluate(from(withField(intent, path, value)), aBusyView());
        expect(decision.kind === 'denied' ? decision.check : decision.kind).toBe('fieldTypes');
        expect(decision.kind === 'denied' ? decision.reason : '').toContain(
          `${path} must be a Decimal (got `,
        );
      }),
      { numRuns: 1000 },
    );
  });
});
