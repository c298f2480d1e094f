import { createHash, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { writePrivateFile } from '../files/index.ts';
import type { SkippedLines } from '../recording/index.ts';
import { eventCacheKey, eventCacheKeyPath, metaSignature } from './event-cache-key.ts';

/**
 * Version of the cache's layout: a cache of another version is stale. 2: the meta keeps the lines
 * the recording's reader skipped, so a run from the cache warns as one from the file does. 3: each
 * chunk has the CRC-32 of its rows, checked as it is read. 4: gap events are rows too, their
 * reasons in the meta, so a recording with gap records is cached (an older reader would take a
 * gap row for a bar). 5: the meta is signed (`mac`, an HMAC-SHA256 under this user's key), so a
 * cache someone else wrote (shipped next to a downloaded recording) is not trusted. 6: a forward
 * receive-time jump is warned of only past 100 times the recording's usual step (e4e9f22): the
 * `skipped` lines of an older cache hold the jumps the old rule found. Bump it whenever the
 * reader's rules change what `skipped` holds, as SESSION_DECODER_ID when decoding changes what it
 * yields: test/config/session-decoder-digest.test.ts fails until one of them is bumped.
 */
export const EVENT_CACHE_FORMAT = 6;

/** What the meta file of an event cache holds. */
export interface EventCacheMeta {
  readonly format: number;
  readonly decoderId: string;
  /**
   * The recording it was built from. ctimeMs is set by the system on any write or `touch`, and no
   * copy keeps it, so an edit whose mtime was put back still shows.
   */
  readonly source: {
    readonly size: number;
    readonly mtimeMs: number;
    readonly ctimeMs: number;
    readonly sha256: string;
  };
  readonly syms: readonly string[];
  readonly intervals: readonly string[];
  /** Per chunk: rows, the CRC-32 of their bytes and the trade ids they refer to. */
  readonly chunks: readonly {
    readonly rows: number;
    readonly crc: number;
    readonly tradeIds: readonly string[];
  }[];
  readonly bytes: number;
  /** The reasons of the gap events, which their rows refer to; absent when the recording has no gap. */
  readonly reasons?: readonly string[];
  /** Lines of the recording that could not be read or decoded; absent for a clean recording. */
  readonly skipped?: readonly SkippedLines[];
  /**
   * The receive time of the recording's last record (`readLastRecvTs`), so a run from the cache
   * finds its span without reading the recording; absent when it holds no record, or in a cache
   * written before it was kept (the run reads the recording's end then, as before).
   */
  readonly lastRecvTs?: number;
  /**
   * HMAC-SHA256 (hex) of the meta's JSON without this field, under this user's key
   * ({@link eventCacheKey}). It covers the data file's length and each chunk's CRC-32 (checked as
   * the chunk is read), so the events can be trusted as this user's own without hashing them.
   */
  readonly mac?: string;
}

/**
 * A meta with its signature under this user's key, last; without one when there is no key (such a
 * cache is then never trusted).
 * @param meta - the meta, unsigned
 * @returns the meta to write
 */
export async function signEventCacheMeta(meta: EventCacheMeta): Promise<EventCacheMeta> {
  const { mac: _old, ...unsigned } = meta;
  const key = await eventCacheKey();
  return key === undefined ? unsigned : { ...unsigned, mac: metaSignature(JSON.stringify(unsigned), key) };
}

/** Whether a meta, as read, carries this user's signature. */
async function signedHere(meta: EventCacheMeta): Promise<boolean> {
  const { mac, ...unsigned } = meta;
  const key = await eventCacheKey();
  if (key === undefined || typeof mac !== 'string') return false;
  const expected = Buffer.from(metaSignature(JSON.stringify(unsigned), key), 'hex');
  const given = Buffer.from(mac, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The SHA-256 of a file, read in 1 MiB chunks.
 * @param path - the file
 * @returns the hash in hex
 */
export async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * The cache's meta when it is valid for this source and decoder and was written by this user on
 * this machine (signed with its key): same size, mtime and ctime, or same size and SHA-256 (a
 * copied, touched or restored file).
 * @param recording - the recording's path
 * @param paths - the cache's data and meta paths
 * @param decoderId - names the decoder: a cache made by another is stale
 * @param onUntrusted - told why a cache of this format and decoder is not used: it is not
 *   signed with this user's key (someone else's, shipped with the recording), or its data file is
 *   not the length its meta signed (cut short or emptied since)
 * @returns the meta, or undefined when the cache is missing, broken, stale or not this user's
 */
export async function validEventCacheMeta(
  recording: string,
  paths: { readonly data: string; readonly meta: string },
  decoderId: string,
  onUntrusted: (message: string) => void = () => undefined,
): Promise<EventCacheMeta | undefined> {
  let meta: EventCacheMeta;
  let dataBytes: number;
  try {
    meta = JSON.parse(await readFile(paths.meta, 'utf8')) as EventCacheMeta;
    dataBytes = (await stat(paths.data)).size;
  } catch {
    return undefined;
  }
  if (meta.format !== EVENT_CACHE_FORMAT || meta.decoderId !== decoderId) return undefined;
  if (!(await signedHere(meta))) {
    onUntrusted(
      `event cache ${paths.meta} was not signed with the cache key in use (${eventCacheKeyPath()}): written by another user or machine, under another cache folder (KEEL_CACHE_DIR, XDG_CACHE_HOME or HOME differ), or edited since; ignored it and rebuilding it from the recording`,
    );
    return undefined;
  }
  // Signed here, so its length was whole once: a file cut short or emptied since is damaged in
  // place, as a chunk whose CRC-32 does not match is, and said the same way.
  if (dataBytes !== meta.bytes) {
    onUntrusted(
      `event cache of ${recording}: the data file is ${dataBytes} bytes, not the ${meta.bytes} written: dropped it and rebuilding it from the recording`,
    );
    return undefined;
  }
  if (meta.skipped !== undefined && !Array.isArray(meta.skipped)) return undefined;
  if (meta.reasons !== undefined && !Array.isArray(meta.reasons)) return undefined;
  if (meta.lastRecvTs !== undefined && !Number.isFinite(meta.lastRecvTs)) return undefined;
  const source = await stat(recording);
  if (source.size !== meta.source.size) return undefined;
  if (source.mtimeMs === meta.source.mtimeMs && source.ctimeMs === meta.source.ctimeMs) return meta;
  if ((await sha256Of(recording)) !== meta.source.sha256) return undefined;
  // The same bytes: note the new times, so the next run needs no hash (best effort).
  const renewed = await signEventCacheMeta({
    ...meta,
    source: { ...meta.source, mtimeMs: source.mtimeMs, ctimeMs: source.ctimeMs },
  });
  await writePrivateFile(paths.meta, JSON.stringify(renewed)).catch(() => undefined);
  return renewed;
}
