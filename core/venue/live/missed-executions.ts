import type { Execution } from '../../model/index.ts';
import { executionFromWire } from '../mapping/user-data-mapping.ts';
import { paginate } from '../rest/paginate.ts';
import type { VenueRestClient } from '../rest/rest-client.ts';

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

/**
 * Every recent execution from `begin` on, page by page (`GET /api/v1/trading/executions/pageable`,
 * the venue's recent window of up to 7 days).
 * @param rest - the REST client
 * @param begin - venue time to start at, epoch ms; the whole recent window when undefined
 * @param pageSize - entries per page
 * @returns the executions, in the venue's order
 * @throws whatever the REST client throws
 */
export async function fetchExecutionsSince(
  rest: VenueRestClient,
  begin: number | undefined,
  pageSize: number,
): Promise<Execution[]> {
  const executions: Execution[] = [];
  const pages = paginate((page) =>
    rest.getExecutionsPage({ page, pageSize, ...(begin === undefined ? {} : { begin }) }),
  );
  for await (const wire of pages) executions.push(executionFromWire(wire));
  return executions;
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
  const times = first.list.map((wire) => executionFromWire(wire).timestamp);
  const lastPage = Math.ceil(first.totalSize / Math.max(first.pageSize, 1));
  const newestFirst = times.length < 2 || (times[0] ?? 0) >= (times[times.length - 1] ?? 0);
  if (!newestFirst && lastPage > 1) {
    const last = await rest.getExecutionsPage({ page: lastPage, pageSize });
    times.push(...last.list.map((wire) => executionFromWire(wire).timestamp));
  }
  return times.length === 0 ? undefined : Math.max(...times);
}
