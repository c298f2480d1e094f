import { stat } from 'node:fs/promises';
import { threadId } from 'node:worker_threads';
import type { MarketEvent } from '../../core/model/index.ts';
import { openPrivate } from '../files/index.ts';
import { type RecordingDamage, readLastRecvTs } from '../recording/index.ts';
import { eventCacheKeyState } from './event-cache-key.ts';
import { sha256Of, validEventCacheMeta } from './event-cache-meta.ts';
import { EventCacheDamagedError, readEventCache } from './event-cache-rows.ts';
import { EventCacheWriter } from './event-cache-writer.ts';
import type { CachedEndTime } from './recording-end-times.ts';
import { cachePartialPath, removeStaleCachePartials } from './stale-cache-partials.ts';

/**
 * A derived binary cache of a recording's decoded market events, written next to it
 * (`<recording>.events.bin` + `<recording>.events.json`), so a repeated backtest of the same file
 * skips reading, JSON parsing and decoding. Keel's choice of format: rows of 12 float64 (kind, sym,
 * ts, recvTs and 8 fields) in chunks, strings (syms, intervals, trade ids) in JSON tables. The
 * meta file names the source's size, mtime and SHA-256 and the decoder: a cache whose source or
 * decoder changed is stale and rebuilt. The meta also keeps the lines the reader skipped (not
 * JSON, not decodable, a damaged tail), so a run from the cache warns as one from the file, and
 * the recording's last receive time, so a run from the cache finds its span without reading the
 * recording's end (a whole read for a file gzipped whole by another tool). Only
 * quotes, trades, bars and gaps (a recorder's gap records, so a run from the cache warns of each
 * hole as one from the file) with exactly the decoders' fields are cached; a recording with
 * anything else is replayed from the file every time. Each
 * chunk's CRC-32 is in the meta and checked as the chunk is read: a data file damaged in place
 * (or left with blocks unwritten by a crash) is dropped with a warning and rebuilt from the
 * recording, the run going on from the event after the last one the cache gave. The meta is
 * signed with a key only this user can read (see event-cache-key.ts), so a cache someone else
 * wrote, shipped next to a downloaded recording, is rebuilt with a notice rather than trusted.
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
 * depend on the cache. Building it first removes the partial files of dead runs' builds. Without
 * this user's key ({@link eventCacheKeyState}) no cache is read or built, and `onDamagedCache` is
 * told why once in the process.
 * @param recording - the recording's path
 * @param decoderId - names the decoder (and its version): a cache made by another is stale
 * @param readFresh - reads and decodes the recording itself, telling `damage` the lines it skips
 * @param damage - the run's tally of skipped lines: the cache's are added to it
 * @param onDamagedCache - told why a damaged cache, or one not signed with this user's key (someone
 *   else's), is rebuilt, or why no cache is kept; default: a line on stderr
 * @param endTime - told the recording's last receive time a valid cache kept, and reads the one a
 *   new cache is to keep; default: reads it ({@link readLastRecvTs}) and tells no one
 * @returns batches of market events, in recording order
 */
export async function* cachedMarketEvents(
  recording: string,
  decoderId: string,
  readFresh: () => AsyncIterable<readonly MarketEvent[]>,
  damage: RecordingDamage,
  onDamagedCache: (message: string) => void = warnOnStderr,
  endTime: CachedEndTime = { fromCache: () => undefined, read: () => readLastRecvTs(recording) },
): AsyncGenerator<readonly MarketEvent[]> {
  const { problem } = await eventCacheKeyState();
  if (problem !== undefined) {
    // A cache unsigned could never be trusted: none is read or built, and the user told once.
    if (!toldKeyProblems.has(problem)) onDamagedCache(problem);
    toldKeyProblems.add(problem);
    yield* readFresh();
    return;
  }
  const paths = eventCachePaths(recording);
  const meta = await validEventCacheMeta(recording, paths, decoderId, onDamagedCache);
  // Events the cache gave before it was found damaged: the rebuild reads them again, not giving them twice.
  let given = 0;
  if (meta !== undefined) {
    if (meta.lastRecvTs !== undefined) endTime.fromCache(meta.lastRecvTs);
    damage.restore(recording, meta.skipped ?? []);
    try {
      for await (const batch of readEventCache(recording, paths.data, meta)) {
        given += batch.length;
        yield batch;
      }
      return;
    } catch (error) {
      if (!(error instanceof EventCacheDamagedError)) throw error;
      onDamagedCache(`${error.message}: dropped it and rebuilding it from the recording`);
    }
  }
  await removeStaleCachePartials(paths.data);
  const before = await stat(recording);
  // A file of this writer's own: backtests of the same recording running at once (sweep workers,
  // which are threads of one pid, and test files) each write theirs, and the last rename wins with
  // the same content.
  const partial = cachePartialPath(paths.data, threadId, ++partialCount);
  const writer = await openPrivate(partial, 'w')
    .then((handle) => new EventCacheWriter(handle, partial))
    .catch(() => undefined);
  let complete = false;
  try {
    for await (const batch of readFresh()) {
      if (writer !== undefined) await writer.add(batch);
      if (given >= batch.length) given -= batch.length;
      else {
        yield given === 0 ? batch : batch.slice(given);
        given = 0;
      }
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
        const lastRecvTs = await endTime.read().catch(() => undefined);
        await writer
          .finish(paths, decoderId, source, damage.skippedIn(recording), lastRecvTs)
          .catch(() => writer.abandon());
      } else {
        await writer.abandon();
      }
    }
  }
}

/** The key problems told in this process: each is told once, not per recording and run. */
const toldKeyProblems = new Set<string>();

function warnOnStderr(message: string): void {
  process.stderr.write(`warning: ${message}\n`);
}
