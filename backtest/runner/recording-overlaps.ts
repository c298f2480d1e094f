import type { MarketEvent } from '../../core/model/index.ts';

interface OverlapTally {
  readonly source: number;
  readonly original: number;
  count: number;
  first: number;
  last: number;
}

/**
 * The events a run's merge dropped because one recording repeats another (a kept or rotated file
 * and its successor, two recorders at once, one file listed twice), per pair of recordings: how
 * many and over which receive times, for the result's `meta.warnings`.
 */
export class RecordingOverlaps {
  readonly #pairs = new Map<string, OverlapTally>();

  /**
   * Counts an event dropped as a repeat (pass as the merge's `onRepeat`).
   * @param event - the dropped event
   * @param source - the index of the recording it came from
   * @param original - the index of the recording whose event it repeats
   */
  readonly note = (event: MarketEvent, source: number, original: number): void => {
    const key = `${source}:${original}`;
    const tally = this.#pairs.get(key);
    if (tally === undefined) {
      this.#pairs.set(key, { source, original, count: 1, first: event.recvTs, last: event.recvTs });
      return;
    }
    tally.count++;
    tally.last = event.recvTs;
  };

  /**
   * One sentence per pair of overlapping recordings, in the order they were first met.
   * @param recordings - the run's recordings, as the merge's sources were indexed
   * @returns e.g. `recordings b.jsonl and a.jsonl overlap from 2025-01-06T00:02:00.000Z to ...: 2 events of b.jsonl repeat a.jsonl's and were replayed once`
   */
  warnings(recordings: readonly string[]): string[] {
    return [...this.#pairs.values()].map((tally) => {
      const source = recordings[tally.source] ?? `#${tally.source}`;
      const original = recordings[tally.original] ?? `#${tally.original}`;
      const names =
        source === original
          ? `recording ${source} is listed more than once`
          : `recordings ${source} and ${original} overlap`;
      const span = `${new Date(tally.first).toISOString()} to ${new Date(tally.last).toISOString()}`;
      const events = tally.count === 1 ? '1 event' : `${tally.count} events`;
      return `${names} (received ${span}): ${events} of ${source} repeating ${original}'s were dropped, so each is replayed once`;
    });
  }
}
