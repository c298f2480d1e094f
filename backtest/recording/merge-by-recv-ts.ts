import { CrossSourceRepeats } from './cross-source-repeats.ts';

/** Anything stamped with a local receive time: records and decoded events alike. */
export interface ReceiveTimed {
  readonly recvTs: number;
}

interface Cursor<T> {
  readonly iterator: AsyncIterator<readonly T[]>;
  batch: readonly T[];
  index: number;
  readonly source: number;
}

/** How a merge drops the items one source repeats of another (see {@link mergeByRecvTs}). */
export interface MergeRepeats<T> {
  /** The item's identity, receive time aside: equal keys are the same message. */
  readonly key: (item: T) => string;
  /** Told each item dropped, the index of its source and of the source it repeats. */
  readonly onRepeat: (item: T, source: number, original: number) => void;
}

async function nextBatch<T>(cursor: Cursor<T>): Promise<boolean> {
  for (;;) {
    const next = await cursor.iterator.next();
    if (next.done) return false;
    if (next.value.length !== 0) {
      cursor.batch = next.value;
      cursor.index = 0;
      return true;
    }
  }
}

/**
 * k-way merge of batch streams by receive time. Each source must already be in receive-time
 * order (a recording is, since the writer appends as messages arrive). Ties go to the source
 * listed first, and each source keeps its own order, so the merge is stable and deterministic.
 * Picking the head is a scan over the k sources: k is a handful of files.
 * @param sources - batch streams, e.g. from `readEventBatches` or `readRecordBatches`
 * @param batchSize - items per output batch (default 4096)
 * @param repeats - when given and there are several sources, an item that repeats one already
 *   merged from ANOTHER source at the same receive time (equal `key`) is dropped and told to
 *   `onRepeat` with its source's index and the one it repeats; items within one source never are
 * @returns merged batches; every input item appears exactly once, but for the repeats dropped
 * @example
 * const merged = mergeByRecvTs([readRecordBatches(a), readRecordBatches(b)]);
 */
export async function* mergeByRecvTs<T extends ReceiveTimed>(
  sources: readonly AsyncIterable<readonly T[]>[],
  batchSize = 4096,
  repeats?: MergeRepeats<T>,
): AsyncGenerator<T[], void, undefined> {
  const seen =
    repeats === undefined || sources.length < 2
      ? undefined
      : new CrossSourceRepeats<T>(repeats.key, repeats.onRepeat);
  const live: Cursor<T>[] = [];
  const all: Cursor<T>[] = sources.map((s, source) => ({
    iterator: s[Symbol.asyncIterator](),
    batch: [],
    index: 0,
    source,
  }));
  try {
    for (const cursor of all) if (await nextBatch(cursor)) live.push(cursor);
    let out: T[] = [];
    while (live.length !== 0) {
      let best = 0;
      let bestTs = (live[0] as Cursor<T>).batch[(live[0] as Cursor<T>).index]!.recvTs;
      for (let i = 1; i < live.length; i++) {
        const c = live[i] as Cursor<T>;
        const ts = c.batch[c.index]!.recvTs;
        if (ts < bestTs) {
          best = i;
          bestTs = ts;
        }
      }
      const cursor = live[best] as Cursor<T>;
      // Take the whole run of this source that no other head precedes. Sources listed before
      // `best` win ties, so the run stops before their head time; later ones lose ties.
      let beforeLimit = Number.POSITIVE_INFINITY;
      let afterLimit = Number.POSITIVE_INFINITY;
      for (let i = 0; i < live.length; i++) {
        if (i === best) continue;
        const c = live[i] as Cursor<T>;
        const ts = c.batch[c.index]!.recvTs;
        if (i < best) beforeLimit = Math.min(beforeLimit, ts);
        else afterLimit = Math.min(afterLimit, ts);
      }
      while (cursor.index < cursor.batch.length) {
        const item = cursor.batch[cursor.index] as T;
        if (item.recvTs >= beforeLimit || item.recvTs > afterLimit) break;
        cursor.index++;
        if (seen !== undefined && !seen.admit(item, cursor.source)) continue;
        out.push(item);
        if (out.length >= batchSize) {
          yield out;
          out = [];
        }
      }
      if (cursor.index >= cursor.batch.length && !(await nextBatch(cursor))) live.splice(best, 1);
    }
    if (out.length !== 0) yield out;
  } finally {
    await Promise.all(all.map((c) => c.iterator.return?.()));
  }
}
