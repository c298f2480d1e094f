import type { PageWire } from '../wire/common.ts';
import { entriesLeftOut } from './page-entries.ts';

/**
 * Walks a paginated endpoint page by page, yielding every entry. Stops after the page that
 * reaches `totalSize`, or on an empty page (not one whose every entry was left out for not
 * decoding: the pages after it may hold good ones).
 * @param fetchPage - fetches one page (1-based)
 * @param firstPage - page to start at
 * @returns an async iterator over the entries
 * @example
 * for await (const order of paginate((page) => rest.getOrderHistory({ page, pageSize: 100 }))) { ... }
 */
export async function* paginate<T>(
  fetchPage: (page: number) => Promise<PageWire<T>>,
  firstPage = 1,
): AsyncGenerator<T, void, undefined> {
  for (let page = firstPage; ; page++) {
    const reply = await fetchPage(page);
    yield* reply.list;
    const empty = reply.list.length === 0 && entriesLeftOut(reply).length === 0;
    if (empty || page * reply.pageSize >= reply.totalSize) return;
  }
}
