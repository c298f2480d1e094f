import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D, type Intent, type PositionSide } from '../../../core/model/index.ts';
import {
  type CheckInput,
  type Denial,
  DISABLEABLE_CHECK_NAMES,
  RISK_CHECKS,
  RiskGate,
  type RiskLimits,
  type RiskLimitsInput,
  riskLimitsSchema,
} from '../../../core/risk/index.ts';
import { decimalOnGrid } from '../../kit/fill-arbitraries.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { arbitraryIntent } from '../../kit/intent-arbitraries.ts';
import { anOrder } from '../../kit/order-builders.ts';
import { aRiskView, type FakeRiskView } from '../../kit/risk-view-builder.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const ETH = 'OKX_PERP_ETH_USDT';

/** Every check of RISK_CHECKS on every intent, in order, with nothing left out: what the chain must decide. */
function everyCheckDenial(
  intent: Intent,
  view: FakeRiskView,
  portfolioLimits: RiskLimits,
  strategyLimits: RiskLimits,
): Denial | undefined {
  const off = new Set([...(portfolioLimits.disabledChecks ?? []), ...(strategyLimits.disabledChecks ?? [])]);
  const input = (limits: RiskLimits, scope: CheckInput['scope']): CheckInput => ({
    strategyId: 's1',
    intent,
    view,
    limits,
    scope,
  });
  for (const check of RISK_CHECKS) {
    if (check.kind !== 'rule' || off.has(check.name)) continue;
    const denial = check.run(input(portfolioLimits, 'portfolio'));
    if (denial !== undefined) return denial;
  }
  for (const [limits, scope] of [
    [portfolioLimits, 'portfolio'],
    [strategyLimits, 'strategy'],
  ] as const) {
    for (const check of RISK_CHECKS) {
      if (check.kind !== 'limit' || limits.disabledChecks?.includes(check.name)) continue;
      const denial = check.run(input(limits, scope));
      if (denial !== undefined) return denial;
    }
  }
  return undefined;
}

function arbitraryLimits(): fc.Arbitrary<RiskLimitsInput> {
  return fc.record(
    {
      maxNotionalPerOrder: fc.constantFrom('50', '1000', '200000'),
      maxPositionQty: fc.constantFrom('0.5', '3', '100'),
      maxPositionQtyBySym: fc.constant({ [ETH]: '2' }),
      maxGrossExposure: fc.constantFrom('100', '100000'),
      maxOpenOrders: fc.integer({ min: 0, max: 3 }),
      priceBand: fc.constantFrom(0.01, 0.5),
      disabledChecks: fc.subarray([...DISABLEABLE_CHECK_NAMES], { maxLength: 4 }),
    },
    { requiredKeys: [] },
  );
}

/** The kinds arbitraryIntent leaves out (closes of one position, algo orders) and modifies of any price and size. */
function arbitraryOtherIntent(): fc.Arbitrary<Intent> {
  const sym = fc.constantFrom(BTC, ETH, 'EDX_PERP_NOPE_USDT');
  const positionSide = fc.constantFrom<PositionSide>('NONE', 'LONG');
  const closePosition = fc
    .record({ sym, positionSide })
    .map((fields): Intent => ({ kind: 'closePosition', ref: 'r', ...fields }));
  const placeAlgoOrder = fc
    .record({
      sym,
      positionSide,
      side: fc.constantFrom('BUY' as const, 'SELL' as const),
      qty: decimalOnGrid('0.001', 0, 20_000),
      price: fc.oneof(fc.constant(D(0)), decimalOnGrid('0.1', 800, 1200)),
      triggerPrice: decimalOnGrid('0.05', 800, 2400),
      reduceOnly: fc.boolean(),
    })
    .map(
      (fields): Intent => ({
        kind: 'placeAlgoOrder',
        ref: 'r',
        algoOrderType: 'TRIGGER',
        conditionType: 'GTE',
        triggerType: 'MarkPrice',
        ...fields,
      }),
    );
  const replaceAlgoOrder = fc
    .record({ sym, qty: fc.option(decimalOnGrid('0.0001', 1, 200_000), { nil: undefined }) })
    .map((fields): Intent => ({ kind: 'replaceAlgoOrder', ref: 'r', target: 'algo-1', ...fields }));
  const modifyOrder = fc
    .record({
      sym,
      target: fc.constantFrom('open-1', 'open-2', 'gone'),
      qty: fc.option(fc.constantFrom(D(0), D('0.5'), D('2.5'), D('40'), D('0.0005')), { nil: undefined }),
      price: fc.option(fc.constantFrom(D(0), D(-1), D('99.5'), D('100.05'), D(250)), { nil: undefined }),
    })
    .map((fields): Intent => ({ kind: 'modifyOrder', ref: 'r', ...fields }));
  return fc.oneof(closePosition, placeAlgoOrder, replaceAlgoOrder, modifyOrder);
}

describe('risk check chain', () => {
  it('decides every intent as running every check in order would, whatever the limits', () => {
    fc.assert(
      fc.property(
        fc.oneof(arbitraryIntent(), arbitraryOtherIntent()),
        arbitraryLimits(),
        arbitraryLimits(),
        fc.constantFrom('0', '3', '-0.4'),
        fc.constantFrom(0, 1, 4),
        (intent, portfolioInput, strategyInput, position, openOrders) => {
          const view = aRiskView();
          view.instruments.set(ETH, anInstrument(ETH));
          view.instruments.set('OKX_PERP_HALT_USDT', anInstrument('OKX_PERP_HALT_USDT', { state: 'HALTED' }));
          view.references.set(ETH, 100);
          view.setPosition(BTC, position);
          view.setPosition(ETH, position);
          view.gross = D('5000');
          view.orders = Array.from({ length: openOrders }, (_, i) => ({
            strategyId: i % 2 === 0 ? 's1' : 's2',
            order: anOrder({ clientOrderId: `open-${i + 1}` }),
          }));
          const portfolioLimits = riskLimitsSchema.parse(portfolioInput);
          const strategyLimits = riskLimitsSchema.parse(strategyInput);
          const gate = new RiskGate({ limits: portfolioInput, strategies: { s1: strategyInput } });
          const decision = gate.evaluate({ strategyId: 's1', intent }, view);
          const expected = everyCheckDenial(intent, view, portfolioLimits, strategyLimits);
          expect(
            decision.kind === 'denied' ? { check: decision.check, reason: decision.reason } : undefined,
          ).toEqual(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('decides each of a sequence of intents as a fresh gate would: nothing of one intent carries to the next', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(arbitraryIntent(), arbitraryOtherIntent()), { minLength: 2, maxLength: 8 }),
        arbitraryLimits(),
        (intents, limits) => {
          const view = aRiskView();
          view.instruments.set(ETH, anInstrument(ETH));
          view.references.set(ETH, 100);
          view.orders = [{ strategyId: 's1', order: anOrder({ clientOrderId: 'open-1' }) }];
          const config = { limits, strategies: { s1: limits } };
          const gate = new RiskGate(config);
          const decide = (g: RiskGate, intent: Intent) => {
            const decision = g.evaluate({ strategyId: 's1', intent }, view);
            return decision.kind === 'denied'
              ? { check: decision.check, reason: decision.reason }
              : 'approved';
          };
          for (const intent of intents)
            expect(decide(gate, intent)).toEqual(decide(new RiskGate(config), intent));
        },
      ),
      { numRuns: 500 },
    );
  });
});
