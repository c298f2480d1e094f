import type {
  AlgoConditionType,
  AlgoOrder,
  AlgoOrderType,
  Dec,
  PositionSide,
  UserEvent,
} from '../../core/model/index.ts';
import { D } from '../../core/model/index.ts';
import type { MarginLoanOrderWire } from '../../core/venue/index.ts';
import {
  ALGO_PLACE_REFUSED_FIELDS,
  ALGO_QUERY_REFUSED_FIELDS,
  MAX_CLOSE_POSITIONS_SYMS,
} from '../../core/venue/index.ts';
import { badParameter, errorFromReason, PaperApiError, simError } from './envelope.ts';
import type { PortfolioBook } from './portfolio-book.ts';
import {
  optionalBoolean,
  optionalDecimal,
  optionalList,
  optionalText,
  type Params,
  requiredDecimal,
  requiredText,
} from './request-fields.ts';
import { algoOrderToWire } from './wire-views.ts';

function check(ref: string, events: readonly UserEvent[]): void {
  const rejection = events.find((e) => e.kind === 'commandRejected' && e.ref === ref);
  if (rejection?.kind === 'commandRejected') throw errorFromReason(rejection.message);
}

function positionSideOf(params: Params, where: string): PositionSide {
  const side = optionalText(params, 'positionSide', where) ?? 'NONE';
  if (side !== 'NONE' && side !== 'LONG' && side !== 'SHORT')
    throw badParameter(`${where} positionSide`, 'must be NONE, LONG or SHORT');
  return side;
}

/**
 * Closes one position with a market close; reduce-only orders on the sym are cancelled first (spec).
 * @param book - the portfolio
 * @param params - sym, positionSide
 * @param where - the request, for errors
 * @returns the sym closed
 * @throws PaperApiError 401129 (too many reduce-only orders), 401097 (nothing to close), 400009
 */
export function closePosition(book: PortfolioBook, params: Params, where: string): { sym: string } {
  const sym = requiredText(params, 'sym', where);
  const ref = book.newRef('close');
  check(ref, book.run({ kind: 'closePosition', ref, sym, positionSide: positionSideOf(params, where) }));
  return { sym };
}

/**
 * Closes the positions of up to 20 syms (spec).
 * @param book - the portfolio
 * @param params - symList
 * @param where - the request, for errors
 * @returns the syms closed
 * @throws PaperApiError 401129 when symList has more than 20 syms or too many reduce-only orders
 */
export function closePositions(book: PortfolioBook, params: Params, where: string): { symList: string[] } {
  const symList = optionalList(params, 'symList', where);
  if (symList === undefined || symList.length === 0) throw badParameter(`${where} symList`, 'is required');
  if (new Set(symList).size > MAX_CLOSE_POSITIONS_SYMS) {
    throw simError(
      'CLOSE_POSITION_REJECTED',
      `symList has ${symList.length} syms, at most ${MAX_CLOSE_POSITIONS_SYMS}`,
    );
  }
  const ref = book.newRef('close');
  check(ref, book.run({ kind: 'closePositions', ref, symList }));
  return { symList };
}

/**
 * Changes the portfolio's position mode (Change Account PositionMode).
 * @param book - the portfolio
 * @param params - positionMode NET or BOTH
 * @param where - the request, for errors
 * @returns the new mode
 * @throws PaperApiError 406012 while positions or open orders exist
 */
export function setPositionMode(
  book: PortfolioBook,
  params: Params,
  where: string,
): { positionMode: string } {
  const mode = requiredText(params, 'positionMode', where);
  if (mode !== 'NET' && mode !== 'BOTH') throw badParameter(`${where} positionMode`, 'must be NET or BOTH');
  const ref = book.newRef('mode');
  check(ref, book.run({ kind: 'setPositionMode', ref, positionMode: mode }));
  return { positionMode: mode };
}

function refuseFields(params: Params, fields: readonly string[], where: string): void {
  const given = fields.find((field) => params[field] !== undefined);
  if (given !== undefined) throw badParameter(`${where} ${given}`, 'is not accepted by this endpoint (spec)');
}

/**
 * Places an algo order. orderType, timeInForce and quoteOrderQty are refused (spec).
 * @param book - the portfolio
 * @param params - sym, side, algoOrderType, conditionType, triggerType, triggerPrice, price, qty...
 * @param where - the request, for errors
 * @returns the algo order as placed
 * @throws PaperApiError 400001 for a refused or malformed field, the sim's code when rejected
 */
export function placeAlgoOrder(book: PortfolioBook, params: Params, where: string): unknown {
  refuseFields(params, ALGO_PLACE_REFUSED_FIELDS, where);
  const side = requiredText(params, 'side', where);
  if (side !== 'BUY' && side !== 'SELL') throw badParameter(`${where} side`, 'must be BUY or SELL');
  const algoOrderType = requiredText(params, 'algoOrderType', where);
  if (algoOrderType !== 'TRIGGER' && algoOrderType !== 'TP_SL')
    throw badParameter(`${where} algoOrderType`, 'must be TRIGGER or TP_SL');
  const conditionType = requiredText(params, 'conditionType', where);
  if (conditionType !== 'GTE' && conditionType !== 'LTE')
    throw badParameter(`${where} conditionType`, 'must be GTE or LTE');
  const ref = optionalText(params, 'clientAlgoOrderId', where) ?? book.newRef('algo');
  const events = book.run({
    kind: 'placeAlgoOrder',
    ref,
    sym: requiredText(params, 'sym', where),
    side,
    algoOrderType: algoOrderType as AlgoOrderType,
    conditionType: conditionType as AlgoConditionType,
    triggerType: optionalText(params, 'triggerType', where) === 'LastPrice' ? 'LastPrice' : 'MarkPrice',
    triggerPrice: requiredDecimal(params, 'triggerPrice', where),
    price: optionalDecimal(params, 'price', where) ?? D(0),
    qty: requiredDecimal(params, 'qty', where),
    reduceOnly: optionalBoolean(params, 'reduceOnly', where) ?? false,
    positionSide: positionSideOf(params, where),
  });
  check(ref, events);
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
  check(
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
  check(ref, book.run({ kind: 'cancelAlgoOrder', ref, target: algo.clientAlgoOrderId, sym: algo.sym }));
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
  check(
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

/**
 * Borrows or repays an asset; the refusal codes are the sim's 406014–406023.
 * @param book - the portfolio
 * @param kind - borrow or repay
 * @param params - exchange, coin, amount
 * @param where - the request, for errors
 * @returns the loan order
 * @throws PaperApiError with the loan code
 */
export function loanCommand(
  book: PortfolioBook,
  kind: 'borrow' | 'repay',
  params: Params,
  where: string,
): MarginLoanOrderWire {
  const exchange = requiredText(params, 'exchange', where);
  const coin = requiredText(params, 'coin', where);
  const amount: Dec = requiredDecimal(params, 'amount', where);
  const ref = optionalText(params, 'clientId', where) ?? book.newRef(kind);
  check(ref, book.run({ kind, ref, exchange, coin, amount }));
  const order: MarginLoanOrderWire = {
    loanOrderId: `${book.portfolioId}-L-${book.loanOrders.length + 1}`,
    type: kind === 'borrow' ? 'BORROW' : 'REPAY',
    exchange,
    coin,
    amount: amount.toFixed(),
    state: 'SUCCESS',
    createAt: book.sim.now(),
  };
  book.loanOrders.push(order);
  return order;
}

/**
 * Sets a sub-portfolio's fee markup, in bps with at most two decimals (precision 0.01 bps, spec).
 * @param books - every portfolio by id
 * @param caller - the portfolio of the API key (must be the main one)
 * @param params - subPortfolioId, markup
 * @param where - the request, for errors
 * @returns the stored markup
 * @throws PaperApiError 2003 when the caller is not the main portfolio, 400001 for a bad markup
 */
export function setSubFeeRate(
  books: ReadonlyMap<string, PortfolioBook>,
  caller: PortfolioBook,
  params: Params,
  where: string,
): { subPortfolioId: string; markup: string } {
  if (!caller.isMain)
    throw new PaperApiError(
      2003,
      `${where}: only the main portfolio's API key may set a sub-portfolio markup`,
    );
  const id = requiredText(params, 'subPortfolioId', where);
  const target = books.get(id);
  if (!target || target.isMain)
    throw badParameter(`${where} subPortfolioId`, `${id} is not a sub-portfolio of this account`);
  const bps = requiredDecimal(params, 'markup', where);
  if (bps.isNegative() || bps.decimalPlaces() > 2)
    throw badParameter(`${where} markup`, 'must be >= 0 bps with at most 2 decimals (0.01 bps)');
  target.markup = bps.div(10_000);
  return { subPortfolioId: id, markup: bps.toFixed() };
}
