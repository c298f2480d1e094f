import type { PageWire } from '../../core/venue/index.ts';
import { badParameter } from './envelope.ts';
import { optionalInteger, type Params } from './request-fields.ts';

/** Default page size of paged replies (Keel's choice: the spec says defaults exist, not their values). */
export const DEFAULT_PAGE_SIZE = 20;
/** Largest page size (Keel's choice). */
export const MAX_PAGE_SIZE = 100;

const DAY_MS = 86_400_000;

/** A data window, in days before the venue's now (spec: recent <= 7 days, archive 7 to 90 days). */
export interface DataWindow {
  /** The oldest data the endpoint serves, days before now. */
  readonly maxAgeDays: number;
  /** The newest data the endpoint serves, days before now (0 = up to now). */
  readonly minAgeDays: number;
}

/** Recent windows: up to 7 days (spec). */
export const RECENT_WINDOW: DataWindow = { maxAgeDays: 7, minAgeDays: 0 };
/** Archived windows: 7 to 90 days (spec). */
export const ARCHIVE_WINDOW: DataWindow = { maxAgeDays: 90, minAgeDays: 7 };
/** Loan orders and loan statement: up to the last 90 days (spec). */
export const NINETY_DAYS: DataWindow = { maxAgeDays: 90, minAgeDays: 0 };

/**
 * Keeps the items of a window, refusing a `begin` / `end` outside it.
 * @param items - the records, any order
 * @param timeOf - a record's time, epoch ms
 * @param params - the request (begin, end)
 * @param window - the endpoint's window
 * @param now - the venue's time, epoch ms
 * @param where - the request, for errors
 * @returns the records inside the window and the requested range, newest first
 * @throws PaperApiError 400001 when begin or end lies outside the window
 */
export function windowed<T>(
  items: readonly T[],
  timeOf: (item: T) => number,
  params: Params,
  window: DataWindow,
  now: number,
  where: string,
): T[] {
  const oldest = now - window.maxAgeDays * DAY_MS;
  const newest = now - window.minAgeDays * DAY_MS;
  const begin = optionalInteger(params, 'begin', where) ?? oldest;
  const end = optionalInteger(params, 'end', where) ?? newest;
  if (begin < oldest || begin > newest) {
    throw badParameter(
      `${where} begin`,
      `must lie in the last ${window.minAgeDays}-${window.maxAgeDays} days of this endpoint's window`,
    );
  }
  if (end < begin) throw badParameter(`${where} end`, 'must not be before begin');
  const to = Math.min(end, newest);
  return items
    .filter((item) => timeOf(item) >= begin && timeOf(item) <= to)
    .sort((a, b) => timeOf(b) - timeOf(a));
}

/**
 * Cuts one page out of a list: `{ page, pageSize, totalSize, list }` (per public venue docs).
 * @param items - every matching record, in reply order
 * @param params - the request (page from 1, pageSize up to {@link MAX_PAGE_SIZE}, limit)
 * @param where - the request, for errors
 * @returns the page
 * @throws PaperApiError 400001 for a page below 1 or a pageSize outside 1..100
 */
export function pageOf<T>(items: readonly T[], params: Params, where: string): PageWire<T> {
  const page = optionalInteger(params, 'page', where) ?? 1;
  const pageSize = optionalInteger(params, 'pageSize', where) ?? DEFAULT_PAGE_SIZE;
  const limit = optionalInteger(params, 'limit', where);
  if (page < 1) throw badParameter(`${where} page`, 'must be 1 or more');
  if (pageSize < 1 || pageSize > MAX_PAGE_SIZE)
    throw badParameter(`${where} pageSize`, `must be 1 to ${MAX_PAGE_SIZE}`);
  if (limit !== undefined && limit < 1) throw badParameter(`${where} limit`, 'must be 1 or more');
  const capped = limit === undefined ? items : items.slice(0, limit);
  return {
    page,
    pageSize,
    totalSize: capped.length,
    list: capped.slice((page - 1) * pageSize, page * pageSize),
  };
}
