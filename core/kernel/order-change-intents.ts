import type {
  CancelAlgoOrderIntent,
  CancelOrderIntent,
  ModifyOrderIntent,
  Order,
  ReplaceAlgoOrderIntent,
} from '../model/index.ts';
import { algoLimitPrice, limitPrice, orderQty, toDecimal, triggerPrice } from './order-amounts.ts';
import type { OrderFactoryState } from './order-defaults.ts';
import type { ModifyInput, ReplaceAlgoInput } from './order-inputs.ts';

/**
 * A modify of an open order's quantity and / or price, its sym filled from the order when known.
 * @param state - what defaults are computed from
 * @param target - clientOrderId (or the order)
 * @param changes - new qty and / or price, and optionally the modify's own reference and `round`
 * @returns the intent
 * @throws TypeError when an amount is not a finite number or a decimal
 */
export function modifyOrderIntent(
  state: OrderFactoryState,
  target: string | Order,
  changes: ModifyInput,
): ModifyOrderIntent {
  const ref = typeof target === 'string' ? target : target.clientOrderId;
  const order = state.orderByRef(ref);
  // The changes are set only when given, in the same key order, without one spread per change:
  // a market maker modifies on most quotes.
  const intent: { -readonly [K in keyof ModifyOrderIntent]: ModifyOrderIntent[K] } = {
    kind: 'modifyOrder',
    ref: changes.ref ?? state.nextRef(),
    target: ref,
    sym: order?.sym ?? '',
  };
  const spec = changes.round === true && order !== undefined ? state.instrument(order.sym) : undefined;
  if (changes.qty !== undefined) intent.qty = orderQty(changes.qty, spec);
  if (changes.price !== undefined)
    intent.price =
      order === undefined ? toDecimal(changes.price, 'price') : limitPrice(changes.price, order.side, spec);
  return intent;
}

/**
 * A cancel of one order, its sym filled from the order when known.
 * @param state - what defaults are computed from
 * @param target - clientOrderId (or the order)
 * @returns the intent
 */
export function cancelOrderIntent(state: OrderFactoryState, target: string | Order): CancelOrderIntent {
  const ref = typeof target === 'string' ? target : target.clientOrderId;
  return {
    kind: 'cancelOrder',
    ref: state.nextRef(),
    target: ref,
    sym: state.orderByRef(ref)?.sym ?? '',
  };
}

/**
 * A replace of an open algo order's trigger, price or quantity, its sym filled from the algo
 * order when known, its amounts rounded as an algo order's when asked (`round`) and it is known:
 * the limit price away from the new trigger, or from the latest one sent when the trigger stays.
 * @param state - what defaults are computed from
 * @param target - clientAlgoOrderId
 * @param changes - the new values, and optionally the replace's own reference and `round`
 * @returns the intent
 * @throws TypeError when an amount is not a finite number or a decimal
 */
export function replaceAlgoOrderIntent(
  state: OrderFactoryState,
  target: string,
  changes: ReplaceAlgoInput,
): ReplaceAlgoOrderIntent {
  const algo = state.algoByRef(target);
  const spec = changes.round === true && algo !== undefined ? state.instrument(algo.sym) : undefined;
  const trigger = changes.triggerPrice === undefined ? undefined : triggerPrice(changes.triggerPrice, spec);
  return {
    kind: 'replaceAlgoOrder',
    ref: changes.ref ?? state.nextRef(),
    target,
    sym: algo?.sym ?? '',
    ...(trigger === undefined ? {} : { triggerPrice: trigger }),
    ...(changes.price === undefined
      ? {}
      : {
          price:
            algo === undefined
              ? toDecimal(changes.price, 'price')
              : algoLimitPrice(changes.price, trigger ?? algo.triggerPrice, algo.side, spec),
        }),
    ...(changes.qty === undefined ? {} : { qty: orderQty(changes.qty, spec) }),
  };
}

/**
 * A cancel of one algo order, its sym filled from the algo order when known.
 * @param state - what defaults are computed from
 * @param target - clientAlgoOrderId
 * @returns the intent
 */
export function cancelAlgoOrderIntent(state: OrderFactoryState, target: string): CancelAlgoOrderIntent {
  const sym = state.algoByRef(target)?.sym ?? '';
  return { kind: 'cancelAlgoOrder', ref: state.nextRef(), target, sym };
}
