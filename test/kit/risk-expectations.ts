import { expect } from 'vitest';
import type { Intent } from '../../core/model/index.ts';
import {
  type RiskCheckName,
  type RiskDecision,
  RiskGate,
  type RiskGateConfigInput,
} from '../../core/risk/index.ts';
import { from } from './intent-builders.ts';
import type { FakeRiskView } from './risk-view-builder.ts';

/**
 * Runs one intent through a fresh gate and asserts it is denied by the named check.
 * @param check - the expected check
 * @param intent - the intent
 * @param view - the state
 * @param config - gate config
 * @returns the denial's reason, for further assertions
 */
export function expectDenied(
  check: RiskCheckName,
  intent: Intent,
  view: FakeRiskView,
  config: RiskGateConfigInput = {},
): string {
  const decision: RiskDecision = new RiskGate(config).evaluate(from(intent), view);
  expect(decision.kind === 'denied' ? `${decision.check}: ${decision.reason}` : 'approved').toMatch(
    new RegExp(`^${check}: `),
  );
  return decision.kind === 'denied' ? decision.reason : '';
}

/**
 * Runs one intent through a fresh gate and asserts it is approved.
 * @param intent - the intent
 * @param view - the state
 * @param config - gate config
 */
export function expectApproved(intent: Intent, view: FakeRiskView, config: RiskGateConfigInput = {}): void {
  const decision = new RiskGate(config).evaluate(from(intent), view);
  expect(decision.kind === 'denied' ? `${decision.check}: ${decision.reason}` : 'approved').toBe('approved');
}
