import type { Dec, EmulationTrigger, OrderSide, PositionSide, TrailingOffsetType } from '../model/index.ts';

/**
 * The life of a Keel-emulated trailing stop: PENDING (accepted by the kernel, waiting for its
 * activation price or its first price) -> ACTIVE (trailing) -> TRIGGERED (the price crossed the
 * stop and the kernel sent its MARKET order, under the same reference, through the risk gate) or
 * CANCELLED (by the strategy, before it triggered, or by the end of the run: {@link TrailingStopCancelReason}).
 */
export type TrailingStopStatus = 'PENDING' | 'ACTIVE' | 'TRIGGERED' | 'CANCELLED';

/**
 * Why a trailing stop was CANCELLED, as an algo order's `cancelReason` says it: `cancel`, the
 * strategy cancelled it; `runEnded`, the backtest or paper/live session stopped while it was still
 * PENDING or ACTIVE. The kernel holds a stop in memory only, so nothing of it outlives the run:
 * the run ends it rather than leave it reading ACTIVE in a result while no order protects the
 * position at the venue.
 */
export type TrailingStopCancelReason = 'cancel' | 'runEnded';

/**
 * A trailing stop the kernel holds for a strategy (the venue has no trailing order type), as the
 * strategy sees it in `ctx.trailingStops()` and `onTrailingStop`, and as a run's outputs list it.
 * The kernel keeps it in memory only: the end of a run cancels each open one (`runEnded`), and a
 * restarted session has none of them.
 */
export interface TrailingStop {
  readonly kind: 'trailingStop';
  /** The caller reference; the MARKET order sent when it triggers carries it as clientOrderId. */
  readonly ref: string;
  readonly strategyId: string;
  readonly sym: string;
  readonly side: OrderSide;
  readonly qty: Dec;
  readonly reduceOnly: boolean;
  readonly positionSide: PositionSide;
  readonly offsetType: TrailingOffsetType;
  readonly offset: Dec;
  readonly activationPrice?: Dec;
  readonly triggerOn: EmulationTrigger;
  readonly status: TrailingStopStatus;
  /** The stop level, on the tick grid; absent while PENDING (for a CANCELLED one: the last level). */
  readonly stopPrice?: Dec;
  /** The best price seen since activation (highest for a SELL stop, lowest for a BUY stop). */
  readonly bestPrice?: number;
  /** The market price that crossed the stop (TRIGGERED only). */
  readonly crossPrice?: number;
  /** Why it was cancelled (CANCELLED only). */
  readonly cancelReason?: TrailingStopCancelReason;
  /** When the kernel accepted it, epoch ms. */
  readonly createAt: number;
  /** When its status last changed, epoch ms. */
  readonly updateAt: number;
}
