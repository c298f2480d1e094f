import type { UserEvent } from '../../model/index.ts';

/**
 * What a reconciliation corrected, for its log line: the number of corrections by event kind
 * (e.g. `{ order: 1, execution: 2, position: 1 }`); empty when Keel's view already was the venue's.
 * @param corrections - the events the reconciliation emitted
 * @returns counts by kind
 */
export function correctionCounts(corrections: readonly UserEvent[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const event of corrections) counts[event.kind] = (counts[event.kind] ?? 0) + 1;
  return counts;
}
