import type { StrategyIntent } from '../model/index.ts';

declare const approvedBrand: unique symbol;

/**
 * An intent the risk gate approved. The brand can only be added by {@link approve}, which the
 * risk folder does not export: an execution port accepts nothing else, so bypassing the gate
 * does not compile.
 */
export type ApprovedIntent = StrategyIntent & { readonly [approvedBrand]: true };

/**
 * Brands an intent as approved. Private to core/risk: only the gate calls it.
 * @param intent - the intent that passed every check
 * @returns the same object, branded
 */
export function approve(intent: StrategyIntent): ApprovedIntent {
  return intent as ApprovedIntent;
}
