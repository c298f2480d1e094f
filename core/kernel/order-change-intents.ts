import type {
  CancelAlgoOrderIntent,
  CancelOrderIntent,
  InstrumentSpec,
  Intent,
  ModifyOrderIntent,
  Order,
  ReplaceAlgoOrderIntent,
} from '../model/index.ts';
import { algoLimitPrice, orderLimitPrice, orderQty, toDecimal, triggerPrice } from './order-amounts.ts';
import type { OrderFactoryState } from './order-defaults.ts';
import type { ModifyInput, ReplaceAlgoInput } from './order-inputs.ts';

/**
 * The changes of the modifies built before their order was known (placed earlier in the same
 * returned batch, so not registered yet) that asked for rounding: the rounding needs the order's
 * sym and side, so it is done once the order is registered ({@link withTargetSym}). Weak, so a
 * modify never sent is not kept; only such modifies are entered, never the usual one.
 */
const roundWhenKnown = new WeakMap<ModifyOrderIntent, ModifyInput>();

type ModifyFields = { -readonly [K in keyof ModifyOrderIntent]: ModifyOrderIntent[K] };

/** Sets the modify's changes on it, rounded to `spec` when given (an unknown order's kept as written). */
function setChanges(
  intent: ModifyFields,
  changes: ModifyInput,
  order: Order | undefined,
  spec?: InstrumentSpec,
): void {
  if (changes.qty !== undefined) intent.qty = orderQty(changes.qty, spec);
  if (changes.price !== undefined)
    // Without the order there is no spec, and the side only says which way to round.
    intent.price = orderLimitPrice(changes.price, order?.side ?? 'BUY', spec);
}

/**
 * A modify of an open order's quantity and / or price, its sym filled from the order when known.
 * One of an order not known yet (placed earlier in the same returned batch) names no sym; the
 * intent pipeline gives it the order's once the placement is registered ({@link withTargetSym}).
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
  const intent: ModifyFields = {
    kind: 'modifyOrder',
    ref: changes.ref ?? state.nextRef(),
    target: ref,
    sym: order?.sym ?? '',
  };
  const spec = changes.round === true && order !== undefined ? state.instrument(order.sym) : undefined;
  setChanges(intent, changes, order, spec);
  if (order === undefined && changes.round === true) roundWhenKnown.set(intent, changes);
  return intent;
}

/**
 * A modify or cancel built before its target order was registered (the order was placed earlier
 * in the same returned batch, or the same `ctx.submit` list) names no sym. By the time it reaches
 * the intent pipeline the placement before it is registered (PENDING_NEW): the intent gets the
 * order's sym, and a modify asking for `round` gets its amounts rounded as the order's, so it is
 * judged and sent exactly as one built in a later hook would be.
 * @param intent - the intent as emitted
 * @param state - the orders and instruments known now
 * @returns the intent, completed when it named no sym and its target is known now
 */
export function withTargetSym(
  intent: Intent,
  state: Pick<OrderFactoryState, 'orderByRef' | 'instrument'>,
): Intent {
  if ((intent.kind !== 'modifyOrder' && intent.kind !== 'cancelOrder') || intent.sym !== '') return intent;
  const order = state.orderByRef(intent.target);
  if (order === undefined) return intent;
  if (intent.kind === 'cancelOrder') return { ...intent, sym: order.sym };
  const changes = roundWhenKnown.get(intent);
  if (changes === undefined) return { ...intent, sym: order.sym };
  const rounded: ModifyFields = {
    kind: 'modifyOrder',
    ref: intent.ref,
    target: intent.target,
    sym: order.sym,
  };
  setChanges(rounded, changes, order, state.instrument(order.sym));
  return rounded;
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
