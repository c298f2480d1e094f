import type { Logger } from 'pino';
import type { Execution } from '../../model/index.ts';
import { VenueError } from '../errors.ts';
import { executionFromWire } from '../mapping/user-data-mapping.ts';
import { entriesLeftOut } from '../rest/page-entries.ts';
import { paginate } from '../rest/paginate.ts';
import type { VenueRestClient } from '../rest/rest-client.ts';
import type { LocalTradingView } from './local-trading-view.ts';

/** How the live client catches up on executions it may have missed while its socket was down. */
export interface ExecutionCatchUpPolicy {
  /**
   * How far before the newest execution seen the catch-up starts, ms. Keel's choice, default
   * 60 000: a fill stamped before the newest one seen may still be unseen (fills on another sym,
   * pushes delivered out of order, the socket dropping mid-batch); executions fetched twice are
   * dropped by transactionId, so a wider margin costs only bandwidth.
   */
  readonly marginMs: number;
  /** Page size of `GET /api/v1/trading/executions/pageable`; default 100. */
  readonly pageSize: number;
}

/** The default catch-up policy. */
export const DEFAULT_EXECUTION_CATCH_UP: ExecutionCatchUpPolicy = { marginMs: 60_000, pageSize: 100 };

/** An execution row the venue listed that Keel could not decode (logged and counted malformed by the REST client). */
export interface LeftOutExecution {
  /** Tells the row from others across listings: its transactionId when readable, else the row itself. */
  readonly key: string;
  /** The row's transactionId, when it is a string. */
  readonly transactionId?: string;
  /** The row's orderId, when it is a string. */
  readonly orderId?: string;
  /** The row's clientOrderId, when it is a non-empty string. */
  readonly clientOrderId?: string;
}

/** Executions listed by the venue: those decoded, and the rows left out for not decoding. */
export interface ExecutionListing {
  /** The executions, in the venue's order. */
  readonly executions: readonly Execution[];
  /** The rows Keel could not decode, in the venue's order. */
  readonly leftOut: readonly LeftOutExecution[];
}

/** What can be read of an execution row that did not decode. */
function leftOutExecution(entry: unknown): LeftOutExecution {
  const row = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>) : {};
  const text = (field: string): string | undefined => {
    const value = row[field];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const transactionId = text('transactionId');
  const orderId = text('orderId');
  const clientOrderId = text('clientOrderId');
  return {
    key: transactionId === undefined ? `row:${JSON.stringify(entry)}` : `transactionId:${transactionId}`,
    ...(transactionId === undefined ? {} : { transactionId }),
    ...(orderId === undefined ? {} : { orderId }),
    ...(clientOrderId === undefined ? {} : { clientOrderId }),
  };
}

/**
 * Every recent execution from `begin` on, page by page (`GET /api/v1/trading/executions/pageable`,
 * the venue's recent window of up to 7 days), and the rows Keel could not decode.
 * @param rest - the REST client
 * @param begin - venue time to start at, epoch ms; the whole recent window when undefined
 * @param pageSize - entries per page
 * @returns the executions and the rows left out, in the venue's order
 * @throws whatever the REST client throws
 */
export async function fetchExecutionsSince(
  rest: VenueRestClient,
  begin: number | undefined,
  pageSize: number,
): Promise<ExecutionListing> {
  const executions: Execution[] = [];
  const leftOut: LeftOutExecution[] = [];
  const query = begin === undefined ? {} : { begin };
  const fetchPage = async (page: number) => {
    const reply = await rest.getExecutionsPage({ ...query, page, pageSize });
    leftOut.push(...entriesLeftOut(reply).map((left) => leftOutExecution(left.entry)));
    return reply;
  };
  for await (const wire of paginate(fetchPage)) executions.push(executionFromWire(wire));
  return { executions, leftOut };
}

/**
 * @param page - a page of recent executions
 * @returns the times of its executions, and of the rows left out for not decoding where readable
 *   (so priming lists a session's earlier rows Keel cannot decode too, and knows them as such)
 */
function timesOf(page: Awaited<ReturnType<VenueRestClient['getExecutionsPage']>>): number[] {
  const times = page.list.map((wire) => executionFromWire(wire).timestamp);
  for (const left of entriesLeftOut(page)) {
    const at = (left.entry as { timestamp?: unknown } | null)?.timestamp;
    if (typeof at === 'number' && Number.isFinite(at)) times.push(at);
  }
  return times;
}

/**
 * The venue time of the newest recent execution, from at most two pages: the first, and the last
 * when the venue lists oldest first (the spec does not say which way it sorts).
 * @param rest - the REST client
 * @param pageSize - entries per page
 * @returns epoch ms, or undefined when the venue lists no recent execution
 * @throws whatever the REST client throws
 */
export async function newestExecutionTime(
  rest: VenueRestClient,
  pageSize: number,
): Promise<number | undefined> {
  const first = await rest.getExecutionsPage({ page: 1, pageSize });
  const times = timesOf(first);
  const lastPage = Math.ceil(first.totalSize / Math.max(first.pageSize, 1));
  const newestFirst = times.length < 2 || (times[0] ?? 0) >= (times[times.length - 1] ?? 0);
  if (!newestFirst && lastPage > 1) {
    const last = await rest.getExecutionsPage({ page: lastPage, pageSize });
    times.push(...timesOf(last));
  }
  return times.length === 0 ? undefined : Math.max(...times);
}

/**
 * Catches up on executions after a reconnect: at the start it notes the executions already on the
 * venue as seen (they predate the session and are never reported); after a reconnect it lists
 * every execution from the newest one seen minus the margin, for reconciliation to report the
 * ones missed. Each execution time counts at most as the venue's time when it was seen, so one
 * fill stamped in the future does not move every later catch-up past the fills made since. A
 * failed catch-up is widened into the next one (the reconciliation's retry).
 */
export class ExecutionCatchUp {
  /** False until the executions already on the venue at the start are noted. */
  private executionsPrimed = false;
  /**
   * Start of a catch-up that failed (or left rows out, until {@link acceptLeftOut}), so the next
   * one still covers its window (null: the whole recent window; undefined: none failed).
   */
  private failedCatchUpFrom: number | null | undefined;
  /** Whether priming was tried and failed: a later priming may find this session's own fills. */
  private primingFailed = false;
  /**
   * Keys of the rows priming could not decode: they predate the session, as the executions noted
   * then, so a catch-up that lists them again did not leave out a fill of the session.
   */
  private readonly leftOutBeforeStart = new Set<string>();

  /**
   * @param rest - the REST client
   * @param view - the client's local view (seen executions)
   * @param policy - margin and page size
   * @param logger - where failures are logged
   * @param placedThisSession - whether this session placed the order with a clientOrderId
   * @param now - the venue's time, epoch ms: when the executions on the venue were seen
   */
  constructor(
    private readonly rest: VenueRestClient,
    private readonly view: LocalTradingView,
    private readonly policy: ExecutionCatchUpPolicy,
    private readonly logger: Logger,
    private readonly placedThisSession: (clientOrderId: string) => boolean,
    private readonly now: () => number,
  ) {}

  /** @returns whether the executions already on the venue at the start are noted */
  get primed(): boolean {
    return this.executionsPrimed;
  }

  /**
   * Notes the recent executions already on the venue, from the newest one minus the margin, as
   * seen: done before the first login, so no order of this session can have filled yet. A failure
   * is logged and priming is tried again at the next reconciliation; such a late priming skips the
   * fills of orders this session placed (made while its socket was down, they are to be reported).
   * @returns when noted (or the failure logged)
   */
  async prime(): Promise<void> {
    const { marginMs, pageSize } = this.policy;
    const rest = this.rest;
    const late = this.primingFailed;
    try {
      const venueNewest = await newestExecutionTime(rest, pageSize);
      if (venueNewest !== undefined) {
        // Capped at the venue's time, as every execution time the catch-up starts from: from a
        // newest one stamped in the future, the session's first catch-up would list fills of
        // the last minute that this note left out, and report them as new.
        const seenAt = this.now();
        const from = Math.min(venueNewest, seenAt) - marginMs;
        const { executions, leftOut } = await fetchExecutionsSince(rest, from, pageSize);
        for (const execution of executions) {
          if (late && this.placedThisSession(execution.clientOrderId)) continue;
          this.view.noteExecution(execution.transactionId, execution.timestamp, seenAt);
        }
        for (const row of leftOut) {
          if (late && row.clientOrderId !== undefined && this.placedThisSession(row.clientOrderId)) continue;
          this.leftOutBeforeStart.add(row.key);
        }
      }
      this.executionsPrimed = true;
    } catch (error) {
      this.primingFailed = true;
      this.logger.error({ err: String(error) }, 'could not list the executions already on the venue');
    }
  }

  /**
   * The oldest venue time an execution a later catch-up compares can have: the next catch-up
   * starts at the newest execution seen minus the margin (the newest only moves on), or earlier at
   * a failed catch-up's start, and keeps one margin before that as {@link recent} does.
   * @returns epoch ms; undefined while any execution may still be compared (none seen yet, not
   *   primed, or a failed catch-up that was to list the whole recent window)
   */
  oldestNeeded(): number | undefined {
    const newest = this.view.newestExecutionTs();
    const failed = this.failedCatchUpFrom;
    if (!this.executionsPrimed || newest === undefined || failed === null) return undefined;
    const { marginMs } = this.policy;
    return Math.min(newest - marginMs, failed ?? Number.POSITIVE_INFINITY) - marginMs;
  }

  /**
   * Executions from `begin` on; when the venue refuses `begin` as outside its recent window
   * (400001: no fill seen for about 7 days), the whole recent window instead.
   */
  private async fetchWithin(begin: number | undefined): Promise<ExecutionListing> {
    try {
      return await fetchExecutionsSince(this.rest, begin, this.policy.pageSize);
    } catch (error) {
      if (begin === undefined || !(error instanceof VenueError) || error.code !== 400001) throw error;
      return fetchExecutionsSince(this.rest, undefined, this.policy.pageSize);
    }
  }

  /**
   * The executions reconciliation compares with the ones seen: every execution from the newest
   * one seen minus the margin (the whole recent window when none was seen yet), and the rows of
   * that window Keel could not decode but those priming found. A catch-up that left rows out is
   * widened into the next one, as a failed one, until {@link acceptLeftOut}: the retry that is to
   * tell whether they were the fills an order state depends on must list them again.
   * @returns the listing, or undefined when none is to be compared (priming or the fetch failed)
   */
  async recent(): Promise<ExecutionListing | undefined> {
    if (!this.executionsPrimed) {
      await this.prime();
      if (!this.executionsPrimed) return undefined;
    }
    const { marginMs } = this.policy;
    const newest = this.view.newestExecutionTs();
    const from = newest === undefined ? undefined : newest - marginMs;
    const failed = this.failedCatchUpFrom;
    const begin = from === undefined || failed === null ? undefined : Math.min(from, failed ?? from);
    try {
      const listing = await this.fetchWithin(begin);
      const leftOut = listing.leftOut.filter((row) => !this.leftOutBeforeStart.has(row.key));
      this.failedCatchUpFrom = leftOut.length > 0 ? (begin ?? null) : undefined;
      if (begin !== undefined) this.view.forgetExecutionsBefore(begin - marginMs);
      return { executions: listing.executions, leftOut };
    } catch (error) {
      this.failedCatchUpFrom = begin ?? null;
      this.logger.error(
        { err: String(error) },
        'could not fetch the executions since the last one seen: fills made while the socket was down are reported when the reconciliation is retried',
      );
      return undefined;
    }
  }

  /**
   * The rows the last catch-up left out are given up on (the order states that depend on them
   * were reported without them): the next catch-up starts from the newest execution seen again.
   */
  acceptLeftOut(): void {
    this.failedCatchUpFrom = undefined;
  }
}
