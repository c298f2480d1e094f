/**
 * The risk gate: every intent passes through it before an execution port.
 * @packageDocumentation
 */
export type { ApprovedIntent } from './approved-intent.ts';
export type { Denial, RiskDecision } from './risk-decision.ts';
export type { RiskView } from './risk-view.ts';
