import { DateTime } from 'luxon';
import type { InstrumentSpec, Intent, PlaceOrderIntent } from '../../core/model/index.ts';
import {
  asNumber,
  describeUnknownFieldValue,
  isAbove,
  isAboveZero,
  isBelow,
  isNotionalBelowMinimum,
  isOnStep,
  parseTimeToSend,
  unknownFieldValue,
} from '../../core/model/index.ts';
import { instrumentNumbers } from './instrument-numbers.ts';
import type { SimState } from './sim-state.ts';

/** `YYYY-MM-DD`, the form of a GTD order's expiryDate. */
export const EXPIRY_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A field of a command outside the values the venue takes (400001, as the paper venue's decoding
 * answers it): a side, order type, time in force, position side, trigger type, condition code,
 * algo order or condition type, position mode, or a flag that is not a boolean. Checked first, so
 * nothing reads such a value (any side but BUY would be a sell).
 * @param intent - the command
 * @returns the field, its value and the values it may take, in words; undefined when all are known
 */
export function badFieldValue(intent: Intent): string | undefined {
  const problem = unknownFieldValue(intent);
  return problem === undefined ? undefined : describeUnknownFieldValue(problem);
}

/**
 * What order entry checks of an order's own parameters: a plain order's, or the order an algo
 * order will send when it fires (checked when the algo order is placed or replaced).
 */
export type OrderParameters = Pick<
  PlaceOrderIntent,
  | 'sym'
  | 'qty'
  | 'orderType'
  | 'price'
  | 'timeInForce'
  | 'positionSide'
  | 'expiryDate'
  | 'condition'
  | 'quoteOrderQty'
>;

/**
 * The first thing wrong with an order's parameters (400001, per public venue docs): the sym not
 * trading, qty off the lot, below the minimum size or (US equities) not whole, a limit price off the tick, sizes over
 * maxLimitSize / maxMarketSize, notional under minNotional, a post-only market order, GTD without
 * its date, positionSide against the position mode (LONG / SHORT in BOTH mode, NONE in NET
 * mode), a conditional order without its trigger fields. A quote-sized market order's qty is
 * checked when it is sized (`quote-sizing.ts`); here only its quote amount.
 * @param state - the venue (its position mode)
 * @param params - the order's parameters
 * @param spec - the sym's instrument
 * @returns the reason in words, or undefined when the parameters are fine
 */
export function badParameter(
  state: SimState,
  params: OrderParameters,
  spec: InstrumentSpec,
): string | undefined {
  if (spec.state !== 'TRADING') return `${params.sym} is ${spec.state}`;
  const badSize = isQuoteSized(params) ? badQuoteAmount(params, spec) : badQtyOrPrice(params, spec);
  if (badSize !== undefined) return badSize;
  if (params.orderType === 'MARKET' && params.timeInForce === 'GTX')
    return 'a market order cannot be post-only';
  if (
    params.timeInForce === 'GTD' &&
    !(EXPIRY_DATE.test(params.expiryDate ?? '') && DateTime.fromISO(params.expiryDate ?? '').isValid)
  )
    return 'GTD needs expiryDate YYYY-MM-DD, a calendar date';
  if (state.positionMode === 'BOTH' && params.positionSide === 'NONE')
    return 'positionSide LONG or SHORT is required in BOTH mode';
  if (state.positionMode === 'NET' && params.positionSide !== 'NONE')
    return 'positionSide must be NONE in NET mode';
  return badCondition(params);
}

/**
 * Whether an order is sized by its quote amount: a market order sent with qty 0 and a
 * quoteOrderQty (a qty above zero wins over a quoteOrderQty sent with it, as the risk gate reads it).
 * @param params - the order's parameters
 * @returns true for a quote-sized market order
 */
export function isQuoteSized(params: Pick<OrderParameters, 'orderType' | 'qty' | 'quoteOrderQty'>): boolean {
  return params.orderType === 'MARKET' && params.quoteOrderQty !== undefined && params.qty.isZero();
}

/**
 * What is wrong with a quote-sized market order before it is sized: a quote amount that is not
 * positive, a condition (Keel's choice: a held order would be sized at a price unknown when it
 * was placed), or a US equity sym (Keel's choice: the spec's PLACE_ORDER, which paper and live
 * send equity orders with, has no quote amount field, so the backtest does not fill what they
 * cannot send). Its qty is checked when it is sized, at the prices it fills at (`quote-sizing.ts`).
 */
function badQuoteAmount(params: OrderParameters, spec: InstrumentSpec): string | undefined {
  if (spec.id.kind === 'equity')
    return `quoteOrderQty is not taken on a US equity (${params.sym}): PLACE_ORDER carries a whole number of shares (qty) only`;
  if (!isAboveZero(params.quoteOrderQty ?? params.qty)) return 'quoteOrderQty must be positive';
  if (params.price && !params.price.isZero()) return 'a market order has price 0';
  if (params.condition) return 'quoteOrderQty is not taken on a conditional order';
  return undefined;
}

/**
 * The first thing wrong with an order's quantity and price (400001, per public venue docs): qty off
 * the lot or below the minimum size, a US equity's qty not a whole number of shares (the spec's
 * PLACE_ORDER qty is an integer; the live adapter refuses to send it, as 400001), a limit price
 * off the tick, qty over maxLimitSize /
 * maxMarketSize, a limit order's notional under minNotional, a market order with a price. Placement
 * checks it of a new order and modification of the order as amended, so an order cannot be grown
 * or shrunk into a size it could not have been placed with.
 * @param params - the order's type, (total) qty and price
 * @param spec - the sym's instrument
 * @returns the reason in words, or undefined when qty and price are fine
 */
export function badQtyOrPrice(
  params: Pick<OrderParameters, 'qty' | 'orderType' | 'price'>,
  spec: InstrumentSpec,
): string | undefined {
  const { qty, price } = params;
  if (!isAboveZero(qty) || !isOnStep(qty, spec.lotSize))
    return `qty must be a positive multiple of ${spec.lotSize.toFixed()}`;
  if (spec.id.kind === 'equity' && !qty.isInteger())
    return `qty must be a whole number of shares on a US equity (${spec.sym}): PLACE_ORDER carries whole shares only`;
  const limits = instrumentNumbers(spec);
  const qtyN = asNumber(qty);
  if (isBelow(qty, qtyN, spec.minSize, limits.minSize))
    return `qty is below the minimum size ${spec.minSize.toFixed()}`;
  if (params.orderType === 'LIMIT') {
    if (price === undefined || !isAboveZero(price) || !isOnStep(price, spec.tickSize))
      return `a limit order needs a positive price on the tick ${spec.tickSize.toFixed()}`;
    if (isAbove(qty, qtyN, spec.maxLimitSize, limits.maxLimitSize))
      return `qty exceeds maxLimitSize ${spec.maxLimitSize.toFixed()}`;
    if (
      isNotionalBelowMinimum(qty, qtyN, asNumber(price), spec, limits.contractSize, limits.minNotional, price)
    )
      return `notional is below minNotional ${spec.minNotional.toFixed()}`;
    return undefined;
  }
  if (price && !price.isZero()) return 'a market order has price 0';
  if (isAbove(qty, qtyN, spec.maxMarketSize, limits.maxMarketSize))
    return `qty exceeds maxMarketSize ${spec.maxMarketSize.toFixed()}`;
  return undefined;
}

/** What a conditional order lacks of its trigger fields, or undefined. */
function badCondition(params: OrderParameters): string | undefined {
  const condition = params.condition;
  if (!condition) return undefined;
  const needsTrigger =
    condition.code === 'UT' || condition.code === 'DT' || condition.code === 'SL' || condition.code === 'OCO';
  if (needsTrigger && !condition.triggerPrice?.gt(0))
    return `conditionCode ${condition.code} needs a positive triggerPrice`;
  if (condition.code === 'OCO' && !condition.stopPrice?.gt(0))
    return 'conditionCode OCO needs a positive stopPrice';
  if (condition.code === 'TIME' && Number.isNaN(parseTimeToSend(condition.timeToSend ?? '')))
    return 'conditionCode TIME needs timeToSend as yyyy-MM-dd HH:mm:ss';
  return undefined;
}
