import { type Dec, POSITION_MODES } from '../../core/model/index.ts';
import type { MarginLoanOrderWire } from '../../core/venue/index.ts';
import { MAX_CLOSE_POSITIONS_SYMS } from '../../core/venue/index.ts';
import { badParameter, PaperApiError, simError, throwIfRefused } from './envelope.ts';
import type { PortfolioBook } from './portfolio-book.ts';
import {
  optionalList,
  optionalText,
  type Params,
  positionSideOf,
  requiredChoice,
  requiredDecimal,
  requiredText,
} from './request-fields.ts';

/**
 * Closes one position with a market close; reduce-only orders on the sym are cancelled first (spec).
 * The position is the sym's (NET mode: positionSide absent or NONE) or its leg's (BOTH mode:
 * positionSide LONG or SHORT; without one the request names no one position and is refused,
 * see the sim's closePosition).
 * @param book - the portfolio
 * @param params - sym, positionSide (optional: NONE, LONG or SHORT)
 * @param where - the request, for errors
 * @returns the sym closed
 * @throws PaperApiError 401129 (too many reduce-only orders), 401097 (nothing to close), 400009,
 *   401023 (a spot holding's close the coin balance cannot pay for), 400001 (a positionSide the
 *   mode does not take)
 */
export function closePosition(book: PortfolioBook, params: Params, where: string): { sym: string } {
  const sym = requiredText(params, 'sym', where);
  const ref = book.newRef('close');
  throwIfRefused(
    ref,
    book.run({ kind: 'closePosition', ref, sym, positionSide: positionSideOf(params, where) }),
  );
  return { sym };
}

/**
 * Closes the positions of up to 20 syms (spec).
 * @param book - the portfolio
 * @param params - symList
 * @param where - the request, for errors
 * @returns the syms closed
 * @throws PaperApiError 401129 when symList has more than 20 entries (a sym listed twice counts
 *   twice: the spec's "symList symbol count exceeds 20") or too many reduce-only orders,
 *   401023 when the coin balances cannot pay for its spot closes together
 */
export function closePositions(book: PortfolioBook, params: Params, where: string): { symList: string[] } {
  const symList = optionalList(params, 'symList', where);
  if (symList === undefined || symList.length === 0) throw badParameter(`${where} symList`, 'is required');
  if (symList.length > MAX_CLOSE_POSITIONS_SYMS) {
    throw simError(
      'CLOSE_POSITION_REJECTED',
      `symList has ${symList.length} syms, at most ${MAX_CLOSE_POSITIONS_SYMS}`,
    );
  }
  const ref = book.newRef('close');
  throwIfRefused(ref, book.run({ kind: 'closePositions', ref, symList }));
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
  const mode = requiredChoice(params, 'positionMode', POSITION_MODES, where);
  const ref = book.newRef('mode');
  throwIfRefused(ref, book.run({ kind: 'setPositionMode', ref, positionMode: mode }));
  return { positionMode: mode };
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
  const clientId = optionalText(params, 'clientId', where);
  const ref = clientId ?? book.newRef(kind);
  throwIfRefused(ref, book.run({ kind, ref, exchange, coin, amount }));
  return book.addLoanOrder((loanOrderId) => ({
    loanOrderId,
    type: kind === 'borrow' ? 'BORROW' : 'REPAY',
    exchange,
    coin,
    amount: amount.toFixed(),
    state: 'SUCCESS',
    // Echoed so a client whose reply was lost can find its loan order (Keel's choice).
    ...(clientId === undefined ? {} : { clientId }),
    createAt: book.sim.now(),
  }));
}

/**
 * Sets a sub-portfolio's fee markup, in bps with at most two decimals (precision 0.01 bps, spec):
 * reported by the broker endpoints and charged on the sub-portfolio's fills from now on.
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
  if (bps.lt(0) || bps.decimalPlaces() > 2)
    throw badParameter(`${where} markup`, 'must be >= 0 bps with at most 2 decimals (0.01 bps)');
  target.setMarkup(bps.div(10_000));
  return { subPortfolioId: id, markup: bps.toFixed() };
}
