import { PaperApiError } from '../envelope.ts';
import type { PortfolioBook } from '../portfolio-book.ts';
import type { RouteContext } from './route-context.ts';

/**
 * The portfolios a request's API key may read: every portfolio of the account for the main
 * portfolio's key, only its own for a sub-portfolio's.
 * @param context - the request
 * @returns the readable portfolios
 */
export function visibleBooks(context: RouteContext): PortfolioBook[] {
  return context.book.isMain ? [...context.books.values()] : [context.book];
}

/**
 * Refuses a read that names a portfolio the request's API key may not read: a sub-portfolio's key
 * naming any portfolio but its own (a sibling's fee rate or collection records). Refused with
 * 2003, "no permission" per public venue docs (the spec names no code for it), before the id is
 * looked up, so a sub-portfolio's key cannot tell its siblings' ids from unknown ones.
 * @param context - the request
 * @param portfolioId - the portfolio it names
 * @param field - the parameter that names it, for the message
 * @throws PaperApiError 2003 when the key may not read that portfolio
 */
export function requireReadable(context: RouteContext, portfolioId: string, field: string): void {
  if (context.book.isMain || portfolioId === context.book.portfolioId) return;
  throw new PaperApiError(
    2003,
    `${context.where} ${field}: ${portfolioId} is not this API key's portfolio; a sub-portfolio's key reads only its own`,
  );
}
