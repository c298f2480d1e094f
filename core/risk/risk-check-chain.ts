import type { Intent } from '../model/index.ts';
import { maxGrossExposureCheck, maxNotionalCheck, maxPositionCheck } from './exposure-checks.ts';
import { instrumentKnownCheck, instrumentTradingCheck } from './instrument-checks.ts';
import {
  clientOrderIdCheck,
  conditionArgumentsCheck,
  gtdExpiryDateCheck,
  orderPriceCheck,
  positionSideCheck,
} from './order-argument-checks.ts';
import {
  closePositionsSymListCheck,
  maxOrdersPerSymCheck,
  modifyTargetCheck,
  reduceOnlyCheck,
} from './order-book-checks.ts';
import { maxOpenOrdersCheck, priceBandCheck } from './order-limit-checks.ts';
import {
  maxSizeCheck,
  minNotionalCheck,
  minSizeCheck,
  priceOnTickCheck,
  qtyOnLotCheck,
} from './order-size-checks.ts';
import { sharedTerms } from './order-terms.ts';
import type { CheckInput, RiskCheck } from './risk-check.ts';
import type { RiskCheckName } from './risk-check-names.ts';
import type { Denial } from './risk-decision.ts';
import type { RiskLimits } from './risk-limits.ts';
import type { RiskView } from './risk-view.ts';

/** Every check of the chain, in the order the gate runs them (rules first, then limits). */
export const RISK_CHECKS: readonly RiskCheck[] = [
  instrumentKnownCheck,
  instrumentTradingCheck,
  clientOrderIdCheck,
  orderPriceCheck,
  gtdExpiryDateCheck,
  conditionArgumentsCheck,
  positionSideCheck,
  modifyTargetCheck,
  closePositionsSymListCheck,
  priceOnTickCheck,
  qtyOnLotCheck,
  minSizeCheck,
  maxSizeCheck,
  minNotionalCheck,
  maxOrdersPerSymCheck,
  reduceOnlyCheck,
  maxNotionalCheck,
  maxPositionCheck,
  maxGrossExposureCheck,
  maxOpenOrdersCheck,
  priceBandCheck,
];

const RULE_CHECKS = RISK_CHECKS.filter((check) => check.kind === 'rule');
const LIMIT_CHECKS = RISK_CHECKS.filter((check) => check.kind === 'limit');

/**
 * Runs the check chain on one intent: the rule checks (less those the portfolio's or the
 * strategy's limits disable), then the limit checks against the portfolio limits, then against
 * the strategy's. The first denial wins.
 */
export class RiskCheckChain {
  readonly #limits: RiskLimits;
  readonly #disabledByLimits = new WeakMap<RiskLimits, ReadonlySet<RiskCheckName>>();

  /**
   * @param limits - the portfolio limits
   */
  constructor(limits: RiskLimits) {
    this.#limits = limits;
  }

  /**
   * Checks one intent.
   * @param strategyId - the strategy that emitted it
   * @param intent - the intent (not a cancel: cancels always pass)
   * @param view - the read-only state
   * @param strategyLimits - the strategy's limits
   * @returns the first check's denial, or undefined when every check passes
   */
  denial(strategyId: string, intent: Intent, view: RiskView, strategyLimits: RiskLimits): Denial | undefined {
    const disabled = this.#disabledRules(strategyLimits);
    // One shared terms record per intent: the checks read the terms and notional computed once.
    const shared = sharedTerms();
    const portfolio: CheckInput = {
      strategyId,
      intent,
      view,
      limits: this.#limits,
      scope: 'portfolio',
      shared,
    };
    for (const check of RULE_CHECKS) {
      if (disabled?.has(check.name)) continue;
      const denial = check.run(portfolio);
      if (denial !== undefined) return denial;
    }
    const strategy: CheckInput = {
      strategyId,
      intent,
      view,
      limits: strategyLimits,
      scope: 'strategy',
      shared,
    };
    for (const input of [portfolio, strategy]) {
      const off = input.limits.disabledChecks;
      for (const check of LIMIT_CHECKS) {
        if (off?.includes(check.name)) continue;
        const denial = check.run(input);
        if (denial !== undefined) return denial;
      }
    }
    return undefined;
  }

  /** Rule checks disabled by the portfolio's or the strategy's limits; undefined when none, built once per limits. */
  #disabledRules(strategyLimits: RiskLimits): ReadonlySet<RiskCheckName> | undefined {
    if (this.#limits.disabledChecks === undefined && strategyLimits.disabledChecks === undefined)
      return undefined;
    let disabled = this.#disabledByLimits.get(strategyLimits);
    if (disabled === undefined) {
      disabled = new Set([...(this.#limits.disabledChecks ?? []), ...(strategyLimits.disabledChecks ?? [])]);
      this.#disabledByLimits.set(strategyLimits, disabled);
    }
    return disabled;
  }
}
