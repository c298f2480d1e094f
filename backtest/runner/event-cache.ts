import { open, stat } from 'node:fs/promises';
import { threadId } from 'node:worker_threads';
import type { MarketEvent } from '../../core/model/index.ts';
import type { RecordingDamage } from '../recording/index.ts';
import { sha256Of, validEventCacheMeta } from './event-cache-meta.ts';
import { readEventCache } from './event-cache-rows.ts';
import { EventCacheWriter } from './event-cache-writer.ts';
import { removeStaleCachePartials } from './stale-cache-partials.ts';

/**
 * A derived binary cache of a recording's decoded market events, written next to it
 * (`<recording>.events.bin` + `<recording>.events.json`), so a repeated backtest of the same file
 * skips reading, JSON parsing and decoding. Keel's choice of format: rows of 12 float64 (kind, sym,
 * ts, recvTs and 8 fields) in chunks, strings (syms, intervals, trade ids) in JSON tables. The
 * meta file names the source's size, mtime and SHA-256 and the decoder: a cache whose source or
 * decoder changed is stale and rebuilt. The meta also keeps the lines the reader skipped (not
 * JSON, not decodable, a damaged tail), so a run from the cache warns as one from the file. Only quotes, trades and bars with exactly the decoders'
 * fields are cached; a recording with anything else is replayed from the file every time.
 */

/** Cache files this thread has started writing, to name each partial file apart. */
let partialCount = 0;

/**
 * Paths of the cache files of a recording.
 * @param recording - the recording's path
 * @returns the data and meta paths
 */
export function eventCachePaths(recording: string): { readonly data: string; readonly meta: string } {
  return { data: `${recording}.events.bin`, meta: `${recording}.events.json` };
}

/**
 * A recording's market events in batches: from its cache when valid, else from `readFresh`,
 * writing the cache on the way (when the directory is writable and every event can be cached).
 * The events, and the skipped lines told to `damage`, are the same either way, so results do not
 * depend on the cache. Building it first removes the partial files of dead runs' builds.
 * @param recording - the recording's path
 * @param decoderId - names the decoder (and its version): a cache made by another is stale
 * @param readFresh - reads and decodes the recording itself, telling `damage` the lines it skips
 * @param damage - the run's tally of skipped lines: the cache's are added to it
 * @returns batches of market events, in recording order
 */
export async function* cachedMarketEvents(
  recording: string,
  decoderId: string,
  readFresh: () => AsyncIterable<readonly MarketEvent[]>,
  damage: RecordingDamage,
): AsyncGenerator<readonly MarketEvent[]> {
  const paths = eventCachePaths(recording);
  const meta = await validEventCacheMeta(recording, paths, decoderId);
  if (meta !== undefined) {
    damage.restore(recording, meta.skipped ?? []);
    yield* readEventCache(recording, paths.data, meta);
    return;
  }
  await removeStaleCachePartials(paths.data);
  const before = await stat(recording);
  // A file of this writer's own: backtests of the same recording running at once (sweep workers,
  // which are threads of one pid, and test files) each write theirs, and the last rename wins with
  // the same content.
  const partial = `${paths.data}.${process.pid}-${threadId}-${++partialCount}.partial`;
  const writer = await open(partial, 'w')
    .then((handle) => new EventCacheWriter(handle, partial))
    .catch(() => undefined);
  let complete = false;
  try {
    for await (const batch of readFresh()) {
      if (writer !== undefined) await writer.add(batch);
      yield batch;
    }
    complete = true;
  } finally {
    if (writer !== undefined) {
      const after = await stat(recording);
      // A recording still being written (or replaced) while it was read is not cached.
      if (
        complete &&
        after.size === before.size &&
        after.mtimeMs === before.mtimeMs &&
        after.ctimeMs === before.ctimeMs
      ) {
        const sha256 = await sha256Of(recording);
        const source = { size: before.size, mtimeMs: before.mtimeMs, ctimeMs: before.ctimeMs, sha256 };
        await writer
          .finish(paths, decoderId, source, damage.skippedIn(recording))
          .catch(() => writer.abandon());
      } else {
        await writer.abandon();
      }
    }
  }
}
