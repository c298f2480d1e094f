import type { Dec } from './decimal.ts';
import type { OrderSide, TriggerPriceType } from './order.ts';
import type { PositionSide } from './position.ts';

/**
 * Algo order type. The spec does not show the field's values: these are Keel's (a plain
 * trigger order, or a take-profit / stop-loss pair on a position).
 */
export type AlgoOrderType = (typeof ALGO_ORDER_TYPES)[number];

/** The algo order types: Keel's names, as {@link AlgoOrderType} says. */
export const ALGO_ORDER_TYPES = ['TRIGGER', 'TP_SL'] as const;

/** The trigger directions of an algo order. */
export const ALGO_CONDITION_TYPES = ['GTE', 'LTE'] as const;

/** Trigger direction: fire when the trigger price rises to (GTE) or falls to (LTE) the level. */
export type AlgoConditionType = (typeof ALGO_CONDITION_TYPES)[number];

/** Algo order state. */
export type AlgoOrderState = 'NEW' | 'TRIGGERED' | 'CANCELLED' | 'FAILED';

/**
 * Set by Keel, never by a venue: the request of Keel's on an algo order the venue has not answered
 * yet. CANCEL while a cancel of it is in flight (the strategy's `cancelAlgo` or `cancelAllAlgos`, or
 * a sweep's), else REPLACE while a `replaceAlgo` is; absent otherwise. As `PENDING_CANCEL` and
 * `PENDING_REPLACE` are on an order.
 */
export type AlgoOrderPending = 'CANCEL' | 'REPLACE';

/**
 * Set by Keel, never by a venue (whose algo order reports carry no reason): why an algo order ended
 * CANCELLED, as far as Keel can tell. `cancel`: a cancel Keel sent for it (the strategy's
 * `cancelAlgo` / `cancelAllAlgos`, or a fault's or kill switch's sweep); `closePosition`: a position
 * close sent on its sym (the venue cancels the reduce-only algo orders there first);
 * `siblingTriggered`: the other take-profit / stop-loss leg attached to the same order fired.
 */
export type AlgoCancelReason = 'cancel' | 'closePosition' | 'siblingTriggered';

/** The states after which an algo order never changes again. */
const FINAL_ALGO_STATES: ReadonlySet<AlgoOrderState> = new Set(['TRIGGERED', 'CANCELLED', 'FAILED']);

/**
 * @param state - an algo order state
 * @returns whether the algo order is done (fired, cancelled or failed)
 */
export function isFinalAlgoState(state: AlgoOrderState): boolean {
  return FINAL_ALGO_STATES.has(state);
}

/** A conditional (algo) order held by the venue until its trigger fires. */
export interface AlgoOrder {
  readonly algoOrderId: string;
  readonly clientAlgoOrderId: string;
  readonly portfolioId: string;
  readonly sym: string;
  readonly side: OrderSide;
  readonly algoOrderType: AlgoOrderType;
  readonly conditionType: AlgoConditionType;
  readonly triggerType: TriggerPriceType;
  readonly triggerPrice: Dec;
  /** Zero = market order on trigger. */
  readonly price: Dec;
  readonly qty: Dec;
  readonly reduceOnly: boolean;
  readonly positionSide: PositionSide;
  readonly state: AlgoOrderState;
  /** The order placed when the trigger fired. */
  readonly orderId?: string;
  /**
   * The order this algo order is attached to (its take-profit or stop-loss), as the spec's algo
   * endpoints name it; absent for an algo order placed on its own.
   */
  readonly attachedOrderId?: string;
  /** Set by Keel: the cancel or replace of it in flight ({@link AlgoOrderPending}); absent when none is. */
  readonly pending?: AlgoOrderPending;
  /**
   * Set by Keel on a CANCELLED algo order: why it was cancelled ({@link AlgoCancelReason}); absent
   * when Keel cannot tell (the venue cancelled it on its own, or someone outside Keel did).
   */
  readonly cancelReason?: AlgoCancelReason;
  readonly createAt: number;
  readonly updateAt: number;
}
