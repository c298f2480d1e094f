import type { Intent, IntentKind } from '../model/index.ts';
import type { SharedTerms } from './order-terms.ts';
import type { RiskCheckName } from './risk-check-names.ts';
import type { Denial } from './risk-decision.ts';
import type { RiskLimits } from './risk-limits.ts';
import type { RiskView } from './risk-view.ts';

/** Which limits a limit check is applying: the portfolio's or the emitting strategy's. */
export type LimitScope = 'portfolio' | 'strategy';

/** What a check sees: the intent, who sent it, the read-only state and the limits in force. */
export interface CheckInput {
  readonly strategyId: string;
  readonly intent: Intent;
  readonly view: RiskView;
  readonly limits: RiskLimits;
  readonly scope: LimitScope;
  /**
   * The intent's order terms and notional, computed on first use and shared by every check of one
   * evaluation (the gate passes one per intent); absent when a check runs on its own.
   */
  readonly shared?: SharedTerms;
}

/**
 * One small pure check. `rule` checks (venue and spec rules) run once per intent; `limit` checks
 * run against the portfolio limits and again against the strategy's.
 */
export interface RiskCheck {
  readonly name: RiskCheckName;
  readonly kind: 'rule' | 'limit';
  /**
   * The intent kinds the check can deny: it passes every other kind without looking, so the
   * chain leaves it out for them.
   */
  readonly intents: readonly IntentKind[];
  /**
   * For a limit check: whether the limits set what it enforces. A check whose limit is absent
   * passes every intent, so the chain leaves it out for those limits. Absent: always runs.
   * @param limits - the limits in force
   * @returns true when the check has something to enforce
   */
  enforces?(limits: RiskLimits): boolean;
  /**
   * @param input - intent, state and limits
   * @returns a denial, or undefined when the intent passes
   */
  run(input: CheckInput): Denial | undefined;
}

/**
 * Builds a denial.
 * @param check - the check's name
 * @param reason - a sentence for the strategy and the log
 * @returns the denial
 */
export function deny(check: RiskCheckName, reason: string): Denial {
  return { check, reason };
}
