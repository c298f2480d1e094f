import { describe, expect, it } from 'vitest';
import type { Intent } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { aMarketOrder } from '../../kit/intent-builders.ts';
import { aRiskView } from '../../kit/risk-view-builder.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const HALT_AT = 1_000;

/** Decides an intent in a portfolio long 1 BTC and HALTED at {@link HALT_AT}, as the kernel would send it. */
function decided(intent: Intent, heldSince?: number): string {
  const gate = new RiskGate();
  gate.halt('kill switch: test', undefined, HALT_AT);
  const view = aRiskView();
  view.setPosition(BTC, '1');
  const decision = gate.evaluate(
    heldSince === undefined ? { strategyId: 's', intent } : { strategyId: 's', intent, heldSince },
    view,
  );
  return decision.kind === 'denied' ? decision.check : decision.kind;
}

const stopOrder = aMarketOrder({ side: 'SELL', reduceOnly: true });

describe('HALTED and the order of a reduce-only emulated trailing stop held since before the halt', () => {
  it('lets it through, as the venue fires a stop it holds', () => {
    expect(decided(stopOrder, HALT_AT - 500)).toBe('approved');
    expect(decided(stopOrder, HALT_AT)).toBe('approved');
  });

  it('still runs the other checks on it', () => {
    const gate = new RiskGate();
    gate.halt('kill switch: test', undefined, HALT_AT);
    const view = aRiskView();
    view.setPosition(BTC, '-1');
    const decision = gate.evaluate({ strategyId: 's', intent: stopOrder, heldSince: 0 }, view);
    expect(decision.kind === 'denied' ? decision.check : decision.kind).toBe('reduceOnly');
  });

  it('denies every other intent: a stop accepted after the halt, one not reduce-only, a strategy order, a close', () => {
    expect(decided(stopOrder, HALT_AT + 1)).toBe('tradingState');
    expect(decided({ ...stopOrder, reduceOnly: false }, 0)).toBe('tradingState');
    expect(decided(stopOrder)).toBe('tradingState');
    expect(decided({ kind: 'closePosition', ref: 'c', sym: BTC, positionSide: 'NONE' }, 0)).toBe(
      'tradingState',
    );
  });

  it('denies it under a halt of unknown time', () => {
    const gate = new RiskGate();
    gate.halt('operator');
    const view = aRiskView();
    view.setPosition(BTC, '1');
    const decision = gate.evaluate({ strategyId: 's', intent: stopOrder, heldSince: 0 }, view);
    expect(decision.kind === 'denied' ? decision.check : decision.kind).toBe('tradingState');
  });
});
