import type { AlgoOrder } from '../../core/model/index.ts';
import {
  ALGO_CONDITION_TYPES,
  BUSINESS_TYPES,
  D,
  EXCHANGE_TYPES,
  ORDER_SIDES,
  TRIGGER_PRICE_TYPES,
} from '../../core/model/index.ts';
import { ALGO_PLACE_REFUSED_FIELDS, ALGO_QUERY_REFUSED_FIELDS } from '../../core/venue/index.ts';
import { badParameter, simError, throwIfRefused } from './envelope.ts';
import type { PortfolioBook } from './portfolio-book.ts';
import {
  optionalBoolean,
  optionalChoice,
  optionalDecimal,
  optionalText,
  type Params,
  positionSideOf,
  requiredChoice,
  requiredDecimal,
  requiredText,
} from './request-fields.ts';
import { algoOrderToWire } from './wire-views.ts';

function refuseFields(params: Params, fields: readonly string[], where: string): void {
  const given = fields.find((field) => params[field] !== undefined);
  if (given !== undefined) throw badParameter(`${where} ${given}`, 'is not accepted by this endpoint (spec)');
}

/**
 * Places an algo order. orderType, timeInForce and quoteOrderQty are refused (spec); triggerType
 * is MarkPrice or LastPrice (per public venue docs), MarkPrice when absent.
 * @param book - the portfolio
 * @param params - sym, side, algoOrderType, conditionType, triggerType, triggerPrice, price, qty...
 * @param where - the request, for errors
 * @returns the algo order as placed
 * @throws PaperApiError 400001 for a refused or malformed field, the sim's code when rejected
 */
export function placeAlgoOrder(book: PortfolioBook, params: Params, where: string): unknown {
  refuseFields(params, ALGO_PLACE_REFUSED_FIELDS, where);
  const side = requiredChoice(params, 'side', ORDER_SIDES, where);
  const algoOrderType = requiredChoice(params, 'algoOrderType', ['TRIGGER', 'TP_SL'], where);
  const conditionType = requiredChoice(params, 'conditionType', ALGO_CONDITION_TYPES, where);
  const ref = optionalText(params, 'clientAlgoOrderId', where) ?? book.newRef('algo');
  const events = book.run({
    kind: 'placeAlgoOrder',
    ref,
    sym: requiredText(params, 'sym', where),
    side,
    algoOrderType,
    conditionType,
    // MarkPrice unless told (Keel's choice); any other value than the two is refused, as on tp / sl.
    triggerType:
      optionalText(params, 'triggerType', where) === undefined
        ? 'MarkPrice'
        : requiredChoice(params, 'triggerType', TRIGGER_PRICE_TYPES, where),
    triggerPrice: requiredDecimal(params, 'triggerPrice', where),
    price: optionalDecimal(params, 'price', where) ?? D(0),
    qty: requiredDecimal(params, 'qty', where),
    reduceOnly: optionalBoolean(params, 'reduceOnly', where) ?? false,
    positionSide: positionSideOf(params, where),
  });
  throwIfRefused(ref, events);
  const algo = book.findAlgo(undefined, ref);
  if (!algo) throw simError('BAD_PARAMETERS', `algo order ${ref} produced no update`);
  return algoOrderToWire(algo);
}

/**
 * The algo order a request names; attachedOrderId is refused (spec). Every name it gives must fit
 * the one algo order, as for orders: an algoOrderId and a clientAlgoOrderId of two algo orders, or
 * a sym other than the order's, name no algo order and are refused with 401018 rather than acted on
 * by one of them (Keel's choice of code: the spec names none; the public venue docs answer an order
 * not found so).
 * @param book - the portfolio
 * @param params - algoOrderId and / or clientAlgoOrderId, optional sym
 * @param where - the request, for errors
 * @returns the algo order
 * @throws PaperApiError 400001 without a reference, 401018 when unknown or misnamed
 */
export function algoTarget(book: PortfolioBook, params: Params, where: string): AlgoOrder {
  refuseFields(params, ALGO_QUERY_REFUSED_FIELDS, where);
  const id = optionalText(params, 'algoOrderId', where);
  const ref = optionalText(params, 'clientAlgoOrderId', where);
  const sym = optionalText(params, 'sym', where);
  if (id === undefined && ref === undefined)
    throw badParameter(where, 'needs algoOrderId or clientAlgoOrderId');
  const algo = book.findAlgo(id, ref);
  if (!algo) throw simError('ORDER_NOT_FOUND', `no algo order ${id ?? ref}`);
  if (ref !== undefined && algo.clientAlgoOrderId !== ref)
    throw simError('ORDER_NOT_FOUND', `no algo order ${id} with clientAlgoOrderId ${ref}`);
  if (sym !== undefined && algo.sym !== sym)
    throw simError('ORDER_NOT_FOUND', `no algo order ${id ?? ref} on ${sym}`);
  return algo;
}

/**
 * Replaces an algo order's trigger, price or quantity.
 * @param book - the portfolio
 * @param params - the reference and the new values
 * @param where - the request, for errors
 * @returns the algo order after the change
 * @throws PaperApiError as {@link algoTarget}, or the sim's code
 */
export function replaceAlgoOrder(book: PortfolioBook, params: Params, where: string): unknown {
  const algo = algoTarget(book, params, where);
  const ref = book.newRef('algo-amend');
  const triggerPrice = optionalDecimal(params, 'triggerPrice', where);
  const price = optionalDecimal(params, 'price', where);
  const qty = optionalDecimal(params, 'qty', where);
  throwIfRefused(
    ref,
    book.run({
      kind: 'replaceAlgoOrder',
      ref,
      target: algo.clientAlgoOrderId,
      sym: algo.sym,
      ...(triggerPrice ? { triggerPrice } : {}),
      ...(price ? { price } : {}),
      ...(qty ? { qty } : {}),
    }),
  );
  return algoOrderToWire(book.algos.get(algo.algoOrderId) ?? algo);
}

/**
 * Cancels one algo order.
 * @param book - the portfolio
 * @param params - the reference
 * @param where - the request, for errors
 * @returns the algo order after cancellation
 * @throws PaperApiError as {@link algoTarget}, or the sim's code
 */
export function cancelAlgoOrder(book: PortfolioBook, params: Params, where: string): unknown {
  const algo = algoTarget(book, params, where);
  const ref = book.newRef('algo-cancel');
  throwIfRefused(
    ref,
    book.run({ kind: 'cancelAlgoOrder', ref, target: algo.clientAlgoOrderId, sym: algo.sym }),
  );
  return algoOrderToWire(book.algos.get(algo.algoOrderId) ?? algo);
}

/**
 * Cancels every open algo order the optional filters all match (spec): sym, exchangeType and
 * businessType (of the order's crypto sym, as orders write them: an equity has neither, so either
 * filter leaves equity algo orders open), algoOrderType and conditionType. Each is cancelled by
 * its own sim command, since the sim's cancel-all filters by sym and type only.
 * @param book - the portfolio
 * @param params - the filters, from the body or the query string
 * @param where - the request, for errors
 * @returns how many were cancelled
 * @throws PaperApiError 400001 for a filter value outside the spec's, the sim's code when refused
 */
export function cancelAllAlgoOrders(
  book: PortfolioBook,
  params: Params,
  where: string,
): { cancelled: number } {
  const sym = optionalText(params, 'sym', where);
  const exchangeType = optionalChoice(params, 'exchangeType', EXCHANGE_TYPES, where);
  const businessType = optionalChoice(params, 'businessType', BUSINESS_TYPES, where);
  const algoOrderType = optionalChoice(params, 'algoOrderType', ['TRIGGER', 'TP_SL'], where);
  const conditionType = optionalChoice(params, 'conditionType', ALGO_CONDITION_TYPES, where);
  const open = [...book.openAlgoIds].flatMap((id) => book.algos.get(id) ?? []);
  const matching = open.filter((a) => {
    const id = book.instruments.get(a.sym)?.id;
    const crypto = id?.kind === 'crypto' ? id : undefined;
    return (
      (sym === undefined || a.sym === sym) &&
      (exchangeType === undefined || crypto?.exchangeType === exchangeType) &&
      (businessType === undefined || crypto?.businessType === businessType) &&
      (algoOrderType === undefined || a.algoOrderType === algoOrderType) &&
      (conditionType === undefined || a.conditionType === conditionType)
    );
  });
  for (const algo of matching) {
    const ref = book.newRef('algo-cancel-all');
    throwIfRefused(
      ref,
      book.run({ kind: 'cancelAlgoOrder', ref, target: algo.clientAlgoOrderId, sym: algo.sym }),
    );
  }
  return { cancelled: matching.length };
}
