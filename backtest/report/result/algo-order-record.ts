import {
  type AlgoOrder,
  type AlgoOrderState,
  type Dec,
  isFinalAlgoState,
} from '../../../core/model/index.ts';

/**
 * One step of an algo order's life: a state the venue reported, when, and the trigger, price and
 * quantity it then had. A NEW after a NEW is a replace (new trigger, price or quantity).
 */
export interface AlgoOrderStep {
  /** The venue's update time, epoch ms. */
  readonly ts: number;
  readonly state: AlgoOrderState;
  readonly triggerPrice: Dec;
  readonly price: Dec;
  readonly qty: Dec;
}

/**
 * An algo (conditional) order as a result holds it: a standalone trigger order or a take-profit /
 * stop-loss leg the venue attached to an order, in its last reported state, with its steps and
 * the order it sent when it fired.
 */
export interface AlgoOrderRecord extends AlgoOrder {
  /** The strategy that placed it (an attached leg: the strategy of its parent order). */
  readonly strategyId?: string;
  /** Every state reported, in order. */
  readonly steps: readonly AlgoOrderStep[];
}

function sameStep(a: AlgoOrderStep, b: AlgoOrderStep): boolean {
  return a.state === b.state && a.triggerPrice.eq(b.triggerPrice) && a.price.eq(b.price) && a.qty.eq(b.qty);
}

/**
 * Folds an algo order update into its record: a new step when the state, trigger, price or
 * quantity changed; an update older than the last one, or after the record is final, is ignored
 * (a duplicate push, a late REST echo), as the kernel ignores it.
 * @param previous - the record so far, undefined for an algo order not seen before
 * @param algo - the update as the venue reported it
 * @param strategyId - the strategy owning it, when known (a known owner is kept otherwise)
 * @returns the new record, or undefined when the update changes nothing
 */
export function nextAlgoOrderRecord(
  previous: AlgoOrderRecord | undefined,
  algo: AlgoOrder,
  strategyId: string | undefined,
): AlgoOrderRecord | undefined {
  if (previous !== undefined && (isFinalAlgoState(previous.state) || algo.updateAt < previous.updateAt))
    return undefined;
  const step: AlgoOrderStep = {
    ts: algo.updateAt,
    state: algo.state,
    triggerPrice: algo.triggerPrice,
    price: algo.price,
    qty: algo.qty,
  };
  const steps = previous?.steps ?? [];
  const last = steps[steps.length - 1];
  if (
    previous !== undefined &&
    last !== undefined &&
    sameStep(last, step) &&
    previous.orderId === algo.orderId
  )
    return undefined;
  const owner = strategyId ?? previous?.strategyId;
  return {
    ...algo,
    ...(owner === undefined ? {} : { strategyId: owner }),
    algoOrderId: algo.algoOrderId || (previous?.algoOrderId ?? ''),
    createAt: previous?.createAt ?? algo.createAt,
    steps: last !== undefined && sameStep(last, step) ? steps : [...steps, step],
  };
}
