import type { InstrumentSpec, PlaceOrderIntent, TrailingStopSpec } from '../model/index.ts';
import { TrailingLevel } from './trailing-level.ts';
import type { TrailingStop, TrailingStopCancelReason, TrailingStopStatus } from './trailing-stop.ts';

/**
 * One stop the trailing stop emulator holds: the strategy's intent, its level as numbers on the
 * tick grid (the per-event path) and its status.
 * @typeParam O - the owner of the stop (the kernel's strategy runner)
 */
export interface HeldTrailingStop<O> {
  readonly owner: O;
  readonly strategyId: string;
  readonly intent: PlaceOrderIntent;
  readonly spec: TrailingStopSpec;
  readonly level: TrailingLevel;
  readonly tick: InstrumentSpec['tickSize'];
  readonly createAt: number;
  /**
   * When, on the kernel's clock, the stop counts as made for the bar cutoff: its `createAt`, or
   * the close of the bar whose delivery it was made in reaction to when that was earlier.
   */
  readonly madeFor: number;
  status: TrailingStopStatus;
  /** Why it was cancelled, once CANCELLED. */
  cancelReason: TrailingStopCancelReason | undefined;
  updateAt: number;
  crossPrice: number;
}

/**
 * A new stop as the emulator holds it: PENDING, its level not yet moved by any price.
 * @param owner - the emitting strategy
 * @param strategyId - its id
 * @param intent - the placeOrder intent with `trailingStop`
 * @param spec - its `trailingStop`
 * @param tick - the tick size of its sym
 * @param now - the kernel's time, epoch ms
 * @param madeFor - when it counts as made for the bar cutoff, epoch ms (at most `now`)
 * @returns the held stop
 */
export function holdTrailingStop<O>(
  owner: O,
  strategyId: string,
  intent: PlaceOrderIntent,
  spec: TrailingStopSpec,
  tick: InstrumentSpec['tickSize'],
  now: number,
  madeFor: number,
): HeldTrailingStop<O> {
  return {
    owner,
    strategyId,
    intent,
    spec,
    tick,
    level: new TrailingLevel({
      side: intent.side,
      tick: tick.toNumber(),
      offsetType: spec.offsetType,
      offset: spec.offset.toNumber(),
      ...(spec.activationPrice === undefined ? {} : { activationPrice: spec.activationPrice.toNumber() }),
    }),
    createAt: now,
    madeFor,
    status: 'PENDING',
    cancelReason: undefined,
    updateAt: now,
    crossPrice: Number.NaN,
  };
}

/**
 * A held stop as its strategy sees it (not for the per-event path: it makes Decimals).
 * @param held - the held stop
 * @returns the stop, with its stop and best prices once ACTIVE and its cross price once TRIGGERED
 */
export function trailingStopSnapshot<O>(held: HeldTrailingStop<O>): TrailingStop {
  const { intent, spec, level } = held;
  const active = level.active;
  return {
    kind: 'trailingStop',
    ref: intent.ref,
    strategyId: held.strategyId,
    sym: intent.sym,
    side: intent.side,
    qty: intent.qty,
    reduceOnly: intent.reduceOnly,
    positionSide: intent.positionSide,
    offsetType: spec.offsetType,
    offset: spec.offset,
    ...(spec.activationPrice === undefined ? {} : { activationPrice: spec.activationPrice }),
    triggerOn: spec.triggerOn,
    status: held.status,
    ...(active ? { stopPrice: held.tick.mul(level.stopTicks), bestPrice: level.bestPrice } : {}),
    ...(held.status === 'TRIGGERED' ? { crossPrice: held.crossPrice } : {}),
    ...(held.cancelReason === undefined ? {} : { cancelReason: held.cancelReason }),
    createAt: held.createAt,
    updateAt: held.updateAt,
  };
}
