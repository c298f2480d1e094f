import type { ApprovedIntent } from './approved-intent.ts';

/** Why an intent was denied: the check's name and a sentence for the strategy and the log. */
export interface Denial {
  readonly check: string;
  readonly reason: string;
}

/** The gate's answer for one intent. */
export type RiskDecision =
  | { readonly kind: 'approved'; readonly command: ApprovedIntent }
  | ({ readonly kind: 'denied' } & Denial);
