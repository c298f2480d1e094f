import type { Intent, IntentKind } from '../model/index.ts';
import { cryptoConditionsCheck } from './crypto-condition-check.ts';
import { equityAttachmentsCheck } from './equity-attachment-check.ts';
import { equityQuoteQtyCheck } from './equity-quote-check.ts';
import { maxGrossExposureCheck, maxNotionalCheck, maxPositionCheck } from './exposure-checks.ts';
import { instrumentKnownCheck, instrumentTradingCheck } from './instrument-checks.ts';
import {
  clientOrderIdCheck,
  conditionArgumentsCheck,
  fieldValuesCheck,
  gtdExpiryDateCheck,
  loanAmountCheck,
  orderPriceCheck,
  orderQtyCheck,
  positionSideCheck,
  timeInForceCheck,
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
import { resetSharedTerms, sharedTerms } from './order-terms.ts';
import type { CheckInput, RiskCheck } from './risk-check.ts';
import type { Denial } from './risk-decision.ts';
import type { RiskLimits } from './risk-limits.ts';
import type { RiskView } from './risk-view.ts';
import { tpSlSideCheck } from './tp-sl-side-check.ts';

/** Every check of the chain, in the order the gate runs them (rules first, then limits). */
export const RISK_CHECKS: readonly RiskCheck[] = [
  instrumentKnownCheck,
  instrumentTradingCheck,
  clientOrderIdCheck,
  fieldValuesCheck,
  orderPriceCheck,
  orderQtyCheck,
  loanAmountCheck,
  timeInForceCheck,
  gtdExpiryDateCheck,
  conditionArgumentsCheck,
  equityAttachmentsCheck,
  cryptoConditionsCheck,
  tpSlSideCheck,
  equityQuoteQtyCheck,
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

/** A check input the chain refills for each intent. */
type ChainInput = { -readonly [K in keyof CheckInput]: CheckInput[K] };

/**
 * The checks one intent kind goes through under one strategy's limits, in chain order: each
 * check that cannot deny the kind, is switched off, or has no limit to enforce is left out, as
 * it would pass the intent without looking.
 */
interface ChainPlan {
  readonly rules: readonly RiskCheck[];
  readonly portfolioLimits: readonly RiskCheck[];
  readonly strategyLimits: readonly RiskCheck[];
}

/**
 * Runs the check chain on one intent: the rule checks (less those the portfolio's or the
 * strategy's limits disable), then the limit checks against the portfolio limits, then against
 * the strategy's. The first denial wins.
 */
export class RiskCheckChain {
  readonly #limits: RiskLimits;
  /** Per strategy limits, the plan of each intent kind: built once, as limits never change. */
  readonly #plans = new WeakMap<RiskLimits, Map<IntentKind, ChainPlan>>();
  /** The terms shared by the checks of the intent being evaluated. */
  readonly #shared = sharedTerms();
  /** The portfolio-scope input of the intent being evaluated, made at the first intent. */
  #portfolio: ChainInput | undefined;

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
    const plan = this.#plan(strategyLimits, intent.kind);
    // One shared terms record per intent: the checks read the terms and notional computed once.
    // The record and the inputs are the chain's own, refilled per intent: the checks are pure and
    // keep nothing, and the chain runs one intent at a time (a market maker sends one per quote).
    const shared = this.#shared;
    resetSharedTerms(shared);
    let portfolio = this.#portfolio;
    if (portfolio === undefined) {
      portfolio = { strategyId, intent, view, limits: this.#limits, scope: 'portfolio', shared };
      this.#portfolio = portfolio;
    } else {
      portfolio.strategyId = strategyId;
      portfolio.intent = intent;
      portfolio.view = view;
    }
    for (const check of plan.rules) {
      const denial = check.run(portfolio);
      if (denial !== undefined) return denial;
    }
    for (const check of plan.portfolioLimits) {
      const denial = check.run(portfolio);
      if (denial !== undefined) return denial;
    }
    if (plan.strategyLimits.length === 0) return undefined;
    const strategy: CheckInput = {
      strategyId,
      intent,
      view,
      limits: strategyLimits,
      scope: 'strategy',
      shared,
    };
    for (const check of plan.strategyLimits) {
      const denial = check.run(strategy);
      if (denial !== undefined) return denial;
    }
    return undefined;
  }

  #plan(strategyLimits: RiskLimits, kind: IntentKind): ChainPlan {
    let plans = this.#plans.get(strategyLimits);
    if (plans === undefined) {
      plans = new Map();
      this.#plans.set(strategyLimits, plans);
    }
    let plan = plans.get(kind);
    if (plan === undefined) {
      plan = planOf(this.#limits, strategyLimits, kind);
      plans.set(kind, plan);
    }
    return plan;
  }
}

/**
 * Builds the plan of one intent kind: a rule check off at either level is off; a limit check is
 * off only for the limits of its level.
 */
function planOf(portfolioLimits: RiskLimits, strategyLimits: RiskLimits, kind: IntentKind): ChainPlan {
  const applies = (check: RiskCheck): boolean => check.intents.includes(kind);
  const off = new Set([...(portfolioLimits.disabledChecks ?? []), ...(strategyLimits.disabledChecks ?? [])]);
  const limitChecks = (limits: RiskLimits): readonly RiskCheck[] =>
    LIMIT_CHECKS.filter(
      (check) =>
        applies(check) &&
        !limits.disabledChecks?.includes(check.name) &&
        (check.enforces === undefined || check.enforces(limits)),
    );
  return {
    rules: RULE_CHECKS.filter((check) => applies(check) && !off.has(check.name)),
    portfolioLimits: limitChecks(portfolioLimits),
    strategyLimits: limitChecks(strategyLimits),
  };
}
