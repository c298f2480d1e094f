import { deny, type RiskCheck } from './risk-check.ts';

/**
 * Denies a conditional order (UT, DT, SL, OCO, TIME, HOLD) on a crypto sym: the condition is a
 * field of the spec's PLACE_ORDER, which carries US-equity orders only, and the venue's crypto
 * orders have none, so live and paper would send the order at once, without it, while the
 * backtest sim held it. Denied in every mode, a backtest cannot show a stop that goes live as a
 * market order; on a crypto sym the strategy places an algo order (`ctx.order.algo`) instead.
 */
export const cryptoConditionsCheck: RiskCheck = {
  name: 'cryptoConditions',
  kind: 'rule',
  intents: ['placeOrder'],
  run({ intent, view }) {
    if (intent.kind !== 'placeOrder' || intent.condition === undefined) return undefined;
    if (view.instrument(intent.sym)?.id.kind !== 'crypto') return undefined;
    return deny(
      'cryptoConditions',
      `order ${intent.ref} on ${intent.sym} is a ${intent.condition.code} conditional order, but conditions are PLACE_ORDER's (US equities) and the venue's crypto orders carry none: place an algo order (ctx.order.algo) instead`,
    );
  },
};
