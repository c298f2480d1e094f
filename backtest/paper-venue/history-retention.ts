/**
 * How much of its history each paper portfolio keeps in memory (Keel's choice, as the sim keeps
 * its last 10 000 final orders): at least the last 10 000 final orders, executions, closed
 * positions, final algo orders, loan orders and liquidation events (at most twice as many: older
 * ones are dropped in batches), with every open order and algo order.
 * Older ones are forgotten, so a long paper session's memory does not grow with every fill; its
 * history endpoints and order lookups no longer list them. A client catching up after a reconnect
 * asks for far fewer (Keel's asks for the last minute's executions).
 */
export const RETAIN_HISTORY = 10_000;

/**
 * Drops the oldest entries of a history list once it holds twice `keep`, leaving the newest
 * `keep`: amortised O(1) an entry.
 * @param list - the list, oldest first
 * @param keep - how many entries are kept
 * @param dropped - told of each dropped entry, oldest first
 */
export function trimHistory<T>(list: T[], keep: number, dropped: (entry: T) => void = () => {}): void {
  if (list.length < 2 * keep) return;
  for (const entry of list.splice(0, list.length - keep)) dropped(entry);
}
