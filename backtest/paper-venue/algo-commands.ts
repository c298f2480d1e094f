import type { AlgoOrder } from '../../core/model/index.ts';
import { D } from '../../core/model/index.ts';
import { ALGO_PLACE_REFUSED_FIELDS, ALGO_QUERY_REFUSED_FIELDS } from '../../core/venue/index.ts';
import { badParameter, simError, throwIfRefused } from './envelope.ts';
import type { PortfolioBook } from './portfolio-book.ts';
import {
  optionalBoolean,
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
  const side = requiredChoice(params, 'side', ['BUY', 'SELL'], where);
  const algoOrderType = requiredChoice(params, 'algoOrderType', ['TRIGGER', 'TP_SL'], where);
  const conditionType = requiredChoice(params, 'conditionType', ['GTE', 'LTE'], where);
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
        : requiredChoice(params, 'triggerType', ['MarkPrice', 'LastPrice'], where),
    triggerPrice: requiredDecimal(params, 'triggerPrice', where),
    price: optionalDecimal(params, 'price', where) ?? D(0),
    qty: requiredDecimal(params, 'qty', where),
    reduceOnly: optionalBoolean(params, 'reduceOnly', where) ?? false,
    positionSide: positionSideOf(params, where),
  });
  throwIfRefused(ref, events);
  const algo = [...book.algos.values()].find((a) => a.clientAlgoOrderId === ref);
  if (!algo) throw simError('BAD_PARAMETERS', `algo order ${ref} produced no update`);
  return algoOrderToWire(algo);
}

/**
 * The algo order a request names; attachedOrderId is refused (spec).
 * @param book - the portfolio
 * @param params - algoOrderId or clientAlgoOrderId
 * @param where - the request, for errors
 * @returns the algo order
 * @throws PaperApiError 400001 without a reference, 401018 when unknown
 */
export function algoTarget(book: PortfolioBook, params: Params, where: string): AlgoOrder {
  refuseFields(params, ALGO_QUERY_REFUSED_FIELDS, where);
  const id = optionalText(params, 'algoOrderId', where);
  const ref = optionalText(params, 'clientAlgoOrderId', where);
  if (id === undefined && ref === undefined)
    throw badParameter(where, 'needs algoOrderId or clientAlgoOrderId');
  const algo = [...book.algos.values()].find(
    (a) => a.algoOrderId === id || (ref !== undefined && a.clientAlgoOrderId === ref),
  );
  if (!algo) throw simError('ORDER_NOT_FOUND', `no algo order ${id ?? ref}`);
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
 * Cancels every open algo order, optionally filtered by sym and algoOrderType.
 * @param book - the portfolio
 * @param params - sym, algoOrderType (exchangeType, businessType, conditionType accepted, spec)
 * @param where - the request, for errors
 * @returns how many were open before
 */
export function cancelAllAlgoOrders(
  book: PortfolioBook,
  params: Params,
  where: string,
): { cancelled: number } {
  const sym = optionalText(params, 'sym', where);
  const type = optionalText(params, 'algoOrderType', where);
  const before = [...book.algos.values()].filter(
    (a) =>
      a.state === 'NEW' &&
      (sym === undefined || a.sym === sym) &&
      (type === undefined || a.algoOrderType === type),
  ).length;
  const ref = book.newRef('algo-cancel-all');
  throwIfRefused(
    ref,
    book.run({
      kind: 'cancelAllAlgoOrders',
      ref,
      ...(sym === undefined ? {} : { sym }),
      ...(type === 'TRIGGER' || type === 'TP_SL' ? { algoOrderType: type } : {}),
    }),
  );
  return { cancelled: before };
}
