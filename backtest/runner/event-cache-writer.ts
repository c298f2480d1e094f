import { type FileHandle, rename, rm } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import type { MarketEvent } from '../../core/model/index.ts';
import { openPrivate } from '../files/index.ts';
import type { SkippedLines } from '../recording/index.ts';
import { EVENT_CACHE_FORMAT, type EventCacheMeta, signEventCacheMeta } from './event-cache-meta.ts';
import { encodeRow, STRIDE } from './event-cache-rows.ts';

/** Writes the cache while the recording is replayed from the file; gives up on the first event it cannot hold. */
export class EventCacheWriter {
  private readonly syms = new Map<string, number>();
  private readonly intervals = new Map<string, number>();
  private readonly reasons = new Map<string, number>();
  private readonly chunks: { rows: number; crc: number; tradeIds: string[] }[] = [];
  private bytes = 0;
  private failed = false;

  /**
   * @param handle - the partial data file, open for writing
   * @param partial - its path
   */
  constructor(
    private readonly handle: FileHandle,
    private readonly partial: string,
  ) {}

  /**
   * Writes a batch as one chunk.
   * @param batch - the batch's events
   * @returns false when the batch holds an event the cache cannot hold (the cache is then dropped)
   */
  async add(batch: readonly MarketEvent[]): Promise<boolean> {
    if (this.failed) return false;
    const rows = new Float64Array(batch.length * STRIDE);
    const tradeIds: string[] = [];
    for (let i = 0; i < batch.length; i++) {
      if (
        !encodeRow(
          batch[i] as MarketEvent,
          rows,
          i * STRIDE,
          tradeIds,
          this.syms,
          this.intervals,
          this.reasons,
        )
      ) {
        this.failed = true;
        return false;
      }
    }
    const bytes = new Uint8Array(rows.buffer);
    try {
      await this.handle.write(bytes);
    } catch {
      // A cache that cannot be written (disk full) is no reason to stop the backtest.
      this.failed = true;
      return false;
    }
    this.chunks.push({ rows: batch.length, crc: crc32(bytes), tradeIds });
    this.bytes += rows.byteLength;
    return true;
  }

  /**
   * Closes the data file and, when every event was written, puts it in place with its meta. Each
   * file is written under the partial name, flushed to the disk and then renamed, so a crash
   * leaves the old file or the new one whole, never one cut short or with blocks not written.
   * @param paths - the cache's data and meta paths
   * @param decoderId - names the decoder
   * @param source - the recording's size, times and SHA-256 as it was read
   * @param skipped - the lines its reader skipped (none for a clean recording)
   * @param lastRecvTs - the receive time of its last record, undefined when it holds none
   */
  async finish(
    paths: { readonly data: string; readonly meta: string },
    decoderId: string,
    source: EventCacheMeta['source'],
    skipped: readonly SkippedLines[],
    lastRecvTs: number | undefined,
  ): Promise<void> {
    if (!this.failed) await this.handle.sync();
    await this.handle.close();
    if (this.failed) {
      await rm(this.partial, { force: true });
      return;
    }
    const meta: EventCacheMeta = {
      format: EVENT_CACHE_FORMAT,
      decoderId,
      source,
      syms: [...this.syms.keys()],
      intervals: [...this.intervals.keys()],
      chunks: this.chunks,
      bytes: this.bytes,
      // Left out when there are none, as the skipped lines are.
      ...(this.reasons.size === 0 ? {} : { reasons: [...this.reasons.keys()] }),
      // Left out when clean, so a clean recording's meta reads as before apart from its format.
      ...(skipped.length === 0 ? {} : { skipped }),
      ...(lastRecvTs === undefined ? {} : { lastRecvTs }),
    };
    await rename(this.partial, paths.data);
    // The partial name is free again: the meta is written under it, so a dead run's is cleaned up the same way.
    const metaFile = await openPrivate(this.partial, 'w');
    try {
      await metaFile.writeFile(JSON.stringify(await signEventCacheMeta(meta)));
      await metaFile.sync();
    } finally {
      await metaFile.close();
    }
    await rename(this.partial, paths.meta);
  }

  /** Closes and removes the partial data file. */
  async abandon(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    await rm(this.partial, { force: true });
  }
}
