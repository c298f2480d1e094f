import { DateTime } from 'luxon';
import type {
  InstrumentSpec,
  OrderCondition,
  PlaceAlgoOrderIntent,
  PlaceOrderIntent,
  TimeInForce,
  TrailingStopSpec,
} from '../model/index.ts';
import { formatTimeToSend, US_EQUITY_ZONE, ZERO } from '../model/index.ts';
import {
  algoLimitPrice,
  orderLimitPrice,
  orderQty,
  toDecimal,
  tpSlOf,
  triggerPrice,
} from './order-amounts.ts';
import type { OrderFactoryState } from './order-defaults.ts';
import { defaultPositionSide, immediateTimeInForce, isEquity } from './order-defaults.ts';
import type {
  AlgoInput,
  Amount,
  ConditionalInput,
  GtdInput,
  OrderInputBase,
  TrailingOffsetInput,
  TrailingStopInput,
} from './order-inputs.ts';

/**
 * The placement intent every order method of the factory builds on: the strategy's fields, with
 * the reference and position side filled when absent and amounts rounded when asked.
 * @param state - what defaults are computed from
 * @param input - the order fields as the strategy wrote them
 * @param orderType - LIMIT or MARKET
 * @param price - the limit price, undefined for a market order
 * @param timeInForce - the time in force
 * @returns the intent
 * @throws TypeError when an amount is not a finite number or a decimal
 */
export function placeOrderIntent(
  state: OrderFactoryState,
  input: OrderInputBase,
  orderType: 'LIMIT' | 'MARKET',
  price: Amount | undefined,
  timeInForce: TimeInForce,
): PlaceOrderIntent {
  const spec = input.round === true ? state.instrument(input.sym) : undefined;
  const reduceOnly = input.reduceOnly ?? false;
  return {
    kind: 'placeOrder',
    ref: input.ref ?? state.nextRef(),
    sym: input.sym,
    side: input.side,
    orderType,
    qty: orderQty(input.qty, spec),
    ...(price === undefined ? {} : { price: orderLimitPrice(price, input.side, spec) }),
    timeInForce,
    reduceOnly,
    positionSide: input.positionSide ?? defaultPositionSide(state, input.side, reduceOnly),
    ...(input.tp === undefined ? {} : { tp: tpSlOf(input.tp, input.side, spec, 'tp') }),
    ...(input.sl === undefined ? {} : { sl: tpSlOf(input.sl, input.side, spec, 'sl') }),
    ...(input.extendedTrading === undefined ? {} : { extendedTrading: input.extendedTrading }),
  };
}

/**
 * A good-till-date limit order intent: an epoch ms expiry becomes its date in New York for US
 * equities and in UTC otherwise.
 * @param state - what defaults are computed from
 * @param input - as for a limit order plus `expiry`
 * @returns the intent, with `expiryDate` as `YYYY-MM-DD`
 * @throws TypeError when an amount is not a finite number or a decimal
 */
export function gtdIntent(state: OrderFactoryState, input: GtdInput): PlaceOrderIntent {
  const zone = isEquity(state, input.sym) ? US_EQUITY_ZONE : 'utc';
  const expiryDate =
    typeof input.expiry === 'number'
      ? (DateTime.fromMillis(input.expiry, { zone }).toISODate() ?? '')
      : input.expiry;
  return { ...placeOrderIntent(state, input, 'LIMIT', input.price, 'GTD'), expiryDate };
}

/**
 * The condition of a conditional order: its code, trigger and stop prices (rounded to the tick
 * when an instrument is given) and send time.
 * @param input - the conditional order as the strategy wrote it
 * @param spec - the instrument to round to, or undefined
 * @returns the condition
 * @throws TypeError when a price is not a finite number or a decimal
 */
export function orderCondition(input: ConditionalInput, spec: InstrumentSpec | undefined): OrderCondition {
  return {
    code: input.code,
    ...(input.triggerPrice === undefined ? {} : { triggerPrice: triggerPrice(input.triggerPrice, spec) }),
    ...(input.stopPrice === undefined ? {} : { stopPrice: triggerPrice(input.stopPrice, spec) }),
    ...(input.sendAt === undefined
      ? {}
      : { timeToSend: typeof input.sendAt === 'number' ? formatTimeToSend(input.sendAt) : input.sendAt }),
  };
}

/**
 * An algo (trigger) order intent, defaults filled (TRIGGER, LastPrice, market price when none)
 * and amounts rounded when asked.
 * @param state - what defaults are computed from
 * @param input - sym, side, qty, trigger and options
 * @returns the intent
 * @throws TypeError when an amount is not a finite number or a decimal
 */
export function placeAlgoOrderIntent(state: OrderFactoryState, input: AlgoInput): PlaceAlgoOrderIntent {
  const spec = input.round === true ? state.instrument(input.sym) : undefined;
  const reduceOnly = input.reduceOnly ?? false;
  const trigger = triggerPrice(input.triggerPrice, spec);
  return {
    kind: 'placeAlgoOrder',
    ref: input.ref ?? state.nextRef(),
    sym: input.sym,
    side: input.side,
    algoOrderType: input.algoOrderType ?? 'TRIGGER',
    conditionType: input.condition,
    triggerType: input.triggerType ?? 'LastPrice',
    triggerPrice: trigger,
    price: input.price === undefined ? ZERO : algoLimitPrice(input.price, trigger, input.side, spec),
    qty: orderQty(input.qty, spec),
    reduceOnly,
    positionSide: input.positionSide ?? defaultPositionSide(state, input.side, reduceOnly),
  };
}

/**
 * A trailing stop intent: a MARKET placeOrder (IOC; FAK for US equities) with its `trailingStop`, reduce-only unless
 * told otherwise, which the kernel holds until the price crosses the stop.
 * @param state - what defaults are computed from
 * @param input - sym, side, qty, offset and options
 * @returns the intent
 * @throws TypeError when the offset does not have exactly one of price, ticks, bps, or an amount
 *   is not a finite number or a decimal
 */
export function trailingStopIntent(state: OrderFactoryState, input: TrailingStopInput): PlaceOrderIntent {
  const reduceOnly = input.reduceOnly ?? true;
  const base = placeOrderIntent(
    state,
    { ...input, reduceOnly },
    'MARKET',
    undefined,
    immediateTimeInForce(state, input.sym),
  );
  const trailingStop: TrailingStopSpec = {
    ...trailingOffset(input.offset),
    ...(input.activationPrice === undefined
      ? {}
      : { activationPrice: toDecimal(input.activationPrice, 'activationPrice') }),
    triggerOn: input.triggerOn ?? 'last',
  };
  return { ...base, trailingStop };
}

function trailingOffset(offset: TrailingOffsetInput): Pick<TrailingStopSpec, 'offsetType' | 'offset'> {
  const keys = Object.keys(offset ?? {});
  if (keys.length !== 1)
    throw new TypeError(
      `order factory: a trailing stop's offset needs exactly one of price, ticks or bps, got ${JSON.stringify(offset)}`,
    );
  if ('ticks' in offset) {
    if (!Number.isInteger(offset.ticks))
      throw new TypeError(`order factory: offset.ticks must be a whole number, got ${offset.ticks}`);
    return { offsetType: 'TICKS', offset: toDecimal(offset.ticks, 'offset.ticks') };
  }
  if ('bps' in offset) return { offsetType: 'BPS', offset: toDecimal(offset.bps, 'offset.bps') };
  return { offsetType: 'PRICE', offset: toDecimal(offset.price, 'offset.price') };
}
