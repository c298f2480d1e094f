import type { InstrumentSpec } from '../../../core/model/index.ts';
import type { LoanOptions } from '../../sim/index.ts';
import type { CommandName } from '../command-table.ts';
import type { PortfolioBook } from '../portfolio-book.ts';
import type { Params } from '../request-fields.ts';

/** What a REST route handler gets: the caller's portfolio, the request and the venue's services. */
export interface RouteContext {
  /** The portfolio of the request's API key. */
  readonly book: PortfolioBook;
  /** Every portfolio of the account, by id. */
  readonly books: ReadonlyMap<string, PortfolioBook>;
  readonly params: Params;
  /** `METHOD path`, for error messages. */
  readonly where: string;
  readonly instruments: readonly InstrumentSpec[];
  readonly loans: LoanOptions | undefined;
  /** Whether the account reply lists the portfolio's assets (see `PaperVenueOptions.accountAssets`). */
  readonly accountAssets: boolean;
  /** Whether the venue's feed is SYNTHETIC. */
  readonly syntheticFeed: boolean;
  /** The venue's virtual time (the replayed events' time). */
  now(): number;
  /**
   * Runs a state-changing command through the journal, after the order-entry latency.
   * @param name - the command
   * @returns its reply data, once the command ran
   */
  execute(name: CommandName): Promise<unknown>;
}

/** One REST route: returns the reply's `data` (or throws a PaperApiError). */
export type RouteHandler = (context: RouteContext) => unknown;
