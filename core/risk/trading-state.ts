import type { Intent } from '../model/index.ts';
import { CANCEL_INTENT_KINDS } from '../model/index.ts';
import { orderTermsOf } from './order-terms.ts';
import { reducesPosition } from './position-reduction.ts';
import type { RiskView } from './risk-view.ts';

/**
 * Trading state: ACTIVE lets everything through the checks, REDUCING only risk-reducing
 * intents, HALTED nothing but cancels.
 */
export type TradingState = 'ACTIVE' | 'REDUCING' | 'HALTED';

/** A trading state and why it was set. */
export interface TradingStatus {
  readonly state: TradingState;
  readonly reason?: string;
  /** When it was set, epoch ms of the run's clock (undefined for the initial ACTIVE). */
  readonly since?: number;
}

const SEVERITY: Readonly<Record<TradingState, number>> = { ACTIVE: 0, REDUCING: 1, HALTED: 2 };

/**
 * The stricter of two statuses (HALTED over REDUCING over ACTIVE).
 * @param a - one status
 * @param b - the other
 * @returns the stricter one (a on ties)
 */
export function stricterStatus(a: TradingStatus, b: TradingStatus): TradingStatus {
  return SEVERITY[b.state] > SEVERITY[a.state] ? b : a;
}

/**
 * Whether an intent only takes risk off: cancels, closes, repayments, reduce-only or reducing
 * orders, and modifications of an order or replacements of an algo order that itself reduces
 * (without growing it). An order or algo
 * order reduces only by what the position has left after every strategy's resting orders on its
 * side and algo orders not triggered yet that can add to it (see {@link reducesPosition}), so
 * several sells or algo sells that each fit a long position alone do not all pass in REDUCING state.
 * @param intent - the intent
 * @param view - the state
 * @returns true when the intent may pass in REDUCING state
 */
export function isRiskReducing(intent: Intent, view: RiskView): boolean {
  if (CANCEL_INTENT_KINDS.has(intent.kind)) return true;
  switch (intent.kind) {
    case 'closePosition':
    case 'closePositions':
    case 'repay':
      return true;
    case 'placeOrder':
    case 'placeAlgoOrder': {
      const terms = orderTermsOf(intent, view);
      return terms !== undefined && (terms.reduceOnly || reducesPosition(terms, view));
    }
    case 'modifyOrder': {
      const order = view.orderByRef(intent.target);
      const terms = orderTermsOf(intent, view);
      if (order === undefined || terms === undefined) return false;
      const grows = intent.qty?.greaterThan(order.orderQty) === true;
      return !grows && (order.reduceOnly || reducesPosition(terms, view));
    }
    case 'replaceAlgoOrder': {
      const algo = view.algoOrderByRef(intent.target) ?? view.inFlightAlgoOrder(intent.target);
      const terms = orderTermsOf(intent, view);
      if (algo === undefined || terms === undefined) return false;
      const grows = intent.qty?.greaterThan(algo.qty) === true;
      return !grows && (algo.reduceOnly || reducesPosition(terms, view));
    }
    default:
      return false;
  }
}
