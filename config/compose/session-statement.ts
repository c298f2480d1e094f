import type { Logger } from 'pino';
import type { CashFlowRecord } from '../../backtest/report/index.ts';
import { type Dec, ZERO } from '../../core/model/index.ts';
import {
  type MarginLoanStatementWire,
  realTimer,
  type StatementWire,
  type TimerPort,
  type VenueRestClient,
} from '../../core/venue/index.ts';
import { loanStatementItem, type StatementItem, tradingStatementItem } from './statement-cash-flows.ts';

/** A window of a statement fetch, epoch ms on the venue's clock; absent = the venue's default. */
export interface StatementWindow {
  readonly begin?: number;
  readonly end?: number;
}

/** Where a session reads the venue's statements from, every page of a window. */
export interface StatementPages {
  trading(window: StatementWindow): AsyncIterable<StatementWire>;
  loans(window: StatementWindow): AsyncIterable<MarginLoanStatementWire>;
}

/**
 * The statements through the venue adapter's REST client: its `pages` iterators, 100 entries a
 * page, behind its rate limiter (the trading statement's 100 requests per 60 s, spec) and its
 * GET retries.
 * @param rest - the session's REST client
 * @returns the pages
 */
export function restStatementPages(rest: Pick<VenueRestClient, 'pages'>): StatementPages {
  return {
    trading: (window) => rest.pages('getStatement', { ...window }),
    loans: (window) => rest.pages('getMarginLoanStatement', { ...window }),
  };
}

/**
 * How often a running session fetches the statements, ms of the session's clock (Keel's choice:
 * hourly, a few requests an hour against the trading statement's 100 per 60 s); a session fetches
 * once more at its end.
 */
export const STATEMENT_REFRESH_MS = 3_600_000;

/** Statements keep 90 days (spec: loan statement; the paper venue: both): a begin before that is refused. */
const WINDOW_MS = 90 * 86_400_000;
/**
 * How far before the end of the last fetch the next one starts (Keel's choice): an entry the
 * venue books a little after the time it carries is still found; the ids drop the repeats.
 */
const OVERLAP_MS = 10 * 60_000;

/** What a session knows of one statement endpoint. */
interface EndpointState {
  /** Where the next fetch starts; undefined = the session's begin. */
  cursor: number | undefined;
  /** Whether a fetch ever succeeded. */
  fetched: boolean;
  /** The last fetch's failure, or undefined when it succeeded. */
  failure: string | undefined;
  /** The end of the last successful fetch (undefined: the venue's now, unknown to the session). */
  coveredUntil: number | undefined;
}

/** Options of {@link SessionStatement}. */
export interface SessionStatementOptions {
  readonly pages: StatementPages;
  /** When the session began on its own clock, epoch ms; 0 or less = unknown (no begin sent). */
  readonly begin: number;
  /**
   * The venue's time at a time of the session's clock, read at each fetch (so the begin is placed
   * with all the session knows by then); absent = the session's clock is the venue's.
   */
  readonly toVenueTime?: (sessionTs: number) => number;
  readonly logger: Logger;
  /** Longest a fetch of both statements may take, ms (default 30 000): a session's end never hangs on it. */
  readonly timeoutMs?: number;
  /**
   * The timer a fetch's `timeoutMs` waits on: wall time, so a session clock that stands still (a
   * lockstep replay with no event coming) cannot hold a session's end. Default the real one.
   */
  readonly timer?: TimerPort;
}

/**
 * The venue's statement entries of one live or paper session: fetched for the session's span
 * (paged, within the rate limit), deduped by id, converted to the cash-flow records a backtest's
 * result carries (funding, interest, loan borrows and repays), with the liquidation fees the
 * statement lists kept to check against the liquidation pushes. A failed fetch is logged and
 * remembered for the result's warnings; it never throws.
 */
export class SessionStatement {
  private readonly items = new Map<string, StatementItem>();
  private readonly trading: EndpointState = {
    cursor: undefined,
    fetched: false,
    failure: undefined,
    coveredUntil: undefined,
  };
  private readonly loans: EndpointState = { ...this.trading };
  private running: Promise<void> = Promise.resolve();
  private clipped = false;

  /** @param options - where to read, the session's begin, a logger */
  constructor(private readonly options: SessionStatementOptions) {}

  /**
   * Fetches what the statements list from where the last fetch left off to `end`, after any
   * fetch still running. Never throws: a failure is logged and kept for {@link warnings}.
   * @param end - the session clock's time now, epoch ms; 0 or less = unknown (no end sent)
   * @param signal - cuts the fetch short when aborted (a stopping session's deadline): what it
   *   had not fetched by then counts as failed, the signal's reason saying why, and what it
   *   fetches later is dropped
   * @returns when done, or cut short
   */
  refresh(end: number, signal?: AbortSignal): Promise<void> {
    const done = new Set<EndpointState>();
    const fetch = this.running.then(() => (signal?.aborted ? undefined : this.fetchBoth(end, done, signal)));
    this.running = fetch;
    if (signal === undefined) return fetch;
    return new Promise<void>((resolve) => {
      const cut = () => {
        const why = (signal.reason as Error | undefined)?.message ?? 'cut short';
        for (const state of [this.trading, this.loans]) if (!done.has(state)) state.failure = why;
        resolve();
      };
      if (signal.aborted) return cut();
      signal.addEventListener('abort', cut, { once: true });
      void fetch.then(() => {
        signal.removeEventListener('abort', cut);
        resolve();
      });
    });
  }

  /**
   * Refreshes every `everyMs` of the session's clock until stopped, so a session longer than the
   * venue's 90-day window loses no entry (Keel's choice: a session's status line shows equity,
   * which already holds these flows; the breakdown is only needed in the result).
   * @param everyMs - the interval
   * @param timer - the session's timer port: its clock is the session's, each fetch's end
   * @returns a function that stops the refreshes
   */
  refreshEvery(everyMs: number, timer: TimerPort): () => void {
    let cancel: (() => void) | undefined;
    const arm = (): void => {
      cancel = timer.setTimer(() => {
        void this.refresh(timer.now());
        arm();
      }, everyMs);
    };
    arm();
    return () => {
      cancel?.();
      cancel = undefined;
    };
  }

  /**
   * The session's cash flows, oldest first; undefined when the trading statement could never be
   * fetched (funding and interest unknown: left out of the result, not claimed zero). At the same
   * ms a charge (funding, interest) comes before a borrow or repay, as the simulated venue books
   * them (a repay pays the hour under way first): the two statements are fetched side by side,
   * so the order they were read in would otherwise depend on which fetch finished first.
   * @returns the records
   */
  cashFlows(): CashFlowRecord[] | undefined {
    if (!this.trading.fetched) return undefined;
    const records: CashFlowRecord[] = [];
    for (const item of this.items.values()) if (item.kind === 'cashFlow') records.push(item.record);
    return records.sort((a, b) => a.ts - b.ts || principalRank(a) - principalRank(b));
  }

  /**
   * The liquidation fees the trading statement listed, per coin (positive = paid).
   * @returns the fees by coin
   */
  liquidationFees(): Map<string, Dec> {
    const fees = new Map<string, Dec>();
    for (const item of this.items.values())
      if (item.kind === 'liquidationFee')
        fees.set(item.coin, (fees.get(item.coin) ?? ZERO).plus(item.amount.abs()));
    return fees;
  }

  /**
   * What the result must say about its cash flows: a statement that could not be fetched (or
   * only in part), entries that could not be read, a window the venue no longer serves whole,
   * and liquidation fees the statement lists but the liquidation pushes do not (or the reverse).
   * @param pushedLiquidationFees - Σ liquidation fees of the liquidation records, in `settleAsset`
   * @param settleAsset - the account currency
   * @returns one sentence per problem; empty when all is well
   */
  warnings(pushedLiquidationFees: Dec, settleAsset: string): string[] {
    const warnings: string[] = [];
    const trading = failureWarning(
      'trading statement',
      this.trading,
      'funding and interest paid are left out of this result (the equity figures include them)',
    );
    if (trading !== undefined) warnings.push(trading);
    const loans = failureWarning(
      'margin-loan statement',
      this.loans,
      'loan borrows and repays are not listed in this result',
    );
    if (loans !== undefined) warnings.push(loans);
    const unreadable = [...this.items.values()].flatMap((i) => (i.kind === 'unreadable' ? [i.why] : []));
    if (unreadable.length > 0)
      warnings.push(
        `${unreadable.length} statement entr${unreadable.length === 1 ? 'y' : 'ies'} could not be read and ${unreadable.length === 1 ? 'is' : 'are'} left out of the cash flows: ${unreadable.slice(0, 3).join('; ')}.`,
      );
    if (this.clipped)
      warnings.push(
        'The session is longer than the 90 days the venue keeps statements: entries older than that were no longer listed.',
      );
    const listed = this.liquidationFees().get(settleAsset) ?? ZERO;
    if (this.trading.fetched && !listed.eq(pushedLiquidationFees))
      warnings.push(
        `The venue's statement lists ${listed.toFixed()} ${settleAsset} of liquidation fees, its liquidation pushes ${pushedLiquidationFees.toFixed()} ${settleAsset}: the liquidation figures count the pushes.`,
      );
    return warnings;
  }

  private async fetchBoth(end: number, done: Set<EndpointState>, signal?: AbortSignal): Promise<void> {
    const timeoutMs = this.options.timeoutMs ?? 30_000;
    let cancelTimeout: () => void = () => undefined;
    const timedOut = new Promise<'timeout' | 'cut'>((resolve) => {
      cancelTimeout = (this.options.timer ?? realTimer()).setTimer(() => resolve('timeout'), timeoutMs);
      // Cut short, the fetch's own timer holds nothing up.
      signal?.addEventListener('abort', () => resolve('cut'), { once: true });
    });
    const trading = this.fetchOne(
      this.trading,
      end,
      (w) => this.options.pages.trading(w),
      tradingStatementItem,
      done,
      signal,
    );
    const loans = this.fetchOne(
      this.loans,
      end,
      (w) => this.options.pages.loans(w),
      loanStatementItem,
      done,
      signal,
    );
    const outcome = await Promise.race([Promise.all([trading, loans]), timedOut]);
    cancelTimeout();
    if (outcome === 'timeout') {
      const why = `no answer within ${timeoutMs / 1000} s`;
      // A fetch still running when the session closes its REST client fails then, unheard.
      for (const state of [this.trading, this.loans]) if (state.failure === 'pending') state.failure = why;
      this.options.logger.warn({ timeoutMs }, 'statement fetch timed out');
    }
  }

  private async fetchOne<T>(
    state: EndpointState,
    end: number,
    entries: (window: StatementWindow) => AsyncIterable<T>,
    read: (entry: T) => StatementItem,
    done: Set<EndpointState>,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const window = this.windowOf(state, end);
    const found: StatementItem[] = [];
    state.failure = 'pending';
    try {
      for await (const entry of entries(window)) {
        if (signal?.aborted) return;
        found.push(read(entry));
      }
    } catch (error) {
      // Cut short, its failure is the cut's (the session closing its REST client ends it).
      if (signal?.aborted) return;
      state.failure = (error as Error).message;
      this.options.logger.warn({ err: state.failure, window }, 'cannot fetch the venue statement');
      return;
    }
    // Only a fetch that finished counts: a page list cut short could have skipped an entry.
    if (signal?.aborted) return;
    done.add(state);
    for (const item of found) if (!this.items.has(item.key)) this.items.set(item.key, item);
    state.failure = undefined;
    state.fetched = true;
    state.coveredUntil = window.end;
    if (window.end !== undefined) state.cursor = window.end - OVERLAP_MS;
  }

  private windowOf(state: EndpointState, end: number): StatementWindow {
    const onVenue = this.options.toVenueTime ?? ((ts: number) => ts);
    const known = end > 0 ? onVenue(end) : undefined;
    // The cursor is the end of an earlier window: on the venue's clock already.
    let begin = state.cursor ?? (this.options.begin > 0 ? onVenue(this.options.begin) : undefined);
    if (begin !== undefined && known !== undefined && begin < known - WINDOW_MS + 60_000) {
      // A minute inside the window, so the venue's clock running ahead does not refuse it.
      this.clipped = true;
      begin = known - WINDOW_MS + 60_000;
    }
    return {
      ...(begin === undefined ? {} : { begin: Math.floor(begin) }),
      ...(known === undefined ? {} : { end: Math.floor(known) }),
    };
  }
}

/** 1 for a borrow or repay (listed after the charges of its ms), 0 for a charge. */
function principalRank(record: CashFlowRecord): number {
  return record.kind === 'BORROW' || record.kind === 'REPAY' ? 1 : 0;
}

function failureWarning(name: string, state: EndpointState, consequence: string): string | undefined {
  if (state.failure === undefined) return undefined;
  const why = state.failure === 'pending' ? 'it did not finish' : state.failure;
  if (!state.fetched) return `The venue's ${name} could not be fetched (${why}): ${consequence}.`;
  const until =
    state.coveredUntil === undefined ? 'an earlier fetch' : new Date(state.coveredUntil).toISOString();
  return `The venue's ${name} could be fetched only up to ${until} (then: ${why}): entries after that are missing from this result's cash flows.`;
}
