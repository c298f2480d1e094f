import type { Intent } from '../../core/model/index.ts';
import { type ApprovedIntent, DISABLEABLE_CHECK_NAMES, RiskGate } from '../../core/risk/index.ts';
import { from } from './intent-builders.ts';
import { aRiskView } from './risk-view-builder.ts';

const permissive = new RiskGate({ limits: { disabledChecks: [...DISABLEABLE_CHECK_NAMES] } });

/**
 * Gets an approved command the only legal way, through a risk gate (with every optional check
 * switched off, so any well-typed intent passes).
 * @param intent - the intent
 * @param strategyId - its strategy, default "s1"
 * @returns the approved command
 * @throws Error when the gate denies it anyway
 */
export function approved(intent: Intent, strategyId = 's1'): ApprovedIntent {
  const decision = permissive.evaluate(from(intent, strategyId), aRiskView());
  if (decision.kind !== 'approved')
    throw new Error(`test intent ${intent.ref} was denied: ${decision.reason}`);
  return decision.command;
}
