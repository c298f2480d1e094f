import type { PageWire } from '../wire/common.ts';

/**
 * Walks a paginated endpoint page by page, yielding every entry. Stops after the page that
 * reaches `totalSize`, or on an empty page.
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
    if (reply.list.length === 0 || page * reply.pageSize >= reply.totalSize) return;
  }
}
