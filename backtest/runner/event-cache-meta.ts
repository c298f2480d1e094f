import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import type { SkippedLines } from '../recording/index.ts';

/**
 * Version of the cache's layout: a cache of another version is stale. 2: the meta keeps the lines
 * the recording's reader skipped, so a run from the cache warns as one from the file does. 3: each
 * chunk has the CRC-32 of its rows, checked as it is read. 4: gap events are rows too, their
 * reasons in the meta, so a recording with gap records is cached (an older reader would take a
 * gap row for a bar).
 */
export const EVENT_CACHE_FORMAT = 4;

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
 * The cache's meta when it is valid for this source and decoder: same size, mtime and ctime, or
 * same size and SHA-256 (a copied, touched or restored file).
 * @param recording - the recording's path
 * @param paths - the cache's data and meta paths
 * @param decoderId - names the decoder: a cache made by another is stale
 * @returns the meta, or undefined when the cache is missing, broken or stale
 */
export async function validEventCacheMeta(
  recording: string,
  paths: { readonly data: string; readonly meta: string },
  decoderId: string,
): Promise<EventCacheMeta | undefined> {
  let meta: EventCacheMeta;
  try {
    meta = JSON.parse(await readFile(paths.meta, 'utf8')) as EventCacheMeta;
    const data = await stat(paths.data);
    if (data.size !== meta.bytes) return undefined;
  } catch {
    return undefined;
  }
  if (meta.format !== EVENT_CACHE_FORMAT || meta.decoderId !== decoderId) return undefined;
  if (meta.skipped !== undefined && !Array.isArray(meta.skipped)) return undefined;
  if (meta.reasons !== undefined && !Array.isArray(meta.reasons)) return undefined;
  if (meta.lastRecvTs !== undefined && !Number.isFinite(meta.lastRecvTs)) return undefined;
  const source = await stat(recording);
  if (source.size !== meta.source.size) return undefined;
  if (source.mtimeMs === meta.source.mtimeMs && source.ctimeMs === meta.source.ctimeMs) return meta;
  if ((await sha256Of(recording)) !== meta.source.sha256) return undefined;
  // The same bytes: note the new times, so the next run needs no hash (best effort).
  const renewed = { ...meta, source: { ...meta.source, mtimeMs: source.mtimeMs, ctimeMs: source.ctimeMs } };
  await writeFile(paths.meta, JSON.stringify(renewed)).catch(() => undefined);
  return renewed;
}
