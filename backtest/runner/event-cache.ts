import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { type FileHandle, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import type {
  BarEvent,
  BarInterval,
  MarketEvent,
  MarketTradeEvent,
  QuoteEvent,
} from '../../core/model/index.ts';

/**
 * A derived binary cache of a recording's decoded market events, written next to it
 * (`<recording>.events.bin` + `<recording>.events.json`), so a repeated backtest of the same file
 * skips reading, JSON parsing and decoding. Keel's choice of format: rows of 12 float64 (kind, sym,
 * ts, recvTs and 8 fields) in chunks, strings (syms, intervals, trade ids) in JSON tables. The
 * meta file names the source's size, mtime and SHA-256 and the decoder: a cache whose source or
 * decoder changed is stale and rebuilt. Only quotes, trades and bars with exactly the decoders'
 * fields are cached; a recording with anything else is replayed from the file every time.
 */

const FORMAT = 1;
/** Cache files this process has started writing, to name each partial file apart. */
let partialCount = 0;
const STRIDE = 12;
const QUOTE = 0;
const TRADE = 1;
const BAR = 2;
const QUOTE_KEYS = 8;
const TRADE_KEYS = 8;
const BAR_KEYS = 12;

/** What the meta file holds. */
interface CacheMeta {
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
  /** Per chunk: rows and the trade ids it refers to. */
  readonly chunks: readonly { readonly rows: number; readonly tradeIds: readonly string[] }[];
  readonly bytes: number;
}

/**
 * Paths of the cache files of a recording.
 * @param recording - the recording's path
 * @returns the data and meta paths
 */
export function eventCachePaths(recording: string): { readonly data: string; readonly meta: string } {
  return { data: `${recording}.events.bin`, meta: `${recording}.events.json` };
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * The cache's meta when it is valid for this source and decoder: same size, mtime and ctime, or
 * same size and SHA-256 (a copied, touched or restored file).
 */
async function validMeta(recording: string, decoderId: string): Promise<CacheMeta | undefined> {
  const paths = eventCachePaths(recording);
  let meta: CacheMeta;
  try {
    meta = JSON.parse(await readFile(paths.meta, 'utf8')) as CacheMeta;
    const data = await stat(paths.data);
    if (data.size !== meta.bytes) return undefined;
  } catch {
    return undefined;
  }
  if (meta.format !== FORMAT || meta.decoderId !== decoderId) return undefined;
  const source = await stat(recording);
  if (source.size !== meta.source.size) return undefined;
  if (source.mtimeMs === meta.source.mtimeMs && source.ctimeMs === meta.source.ctimeMs) return meta;
  if ((await sha256Of(recording)) !== meta.source.sha256) return undefined;
  // The same bytes: note the new times, so the next run needs no hash (best effort).
  const renewed = { ...meta, source: { ...meta.source, mtimeMs: source.mtimeMs, ctimeMs: source.ctimeMs } };
  await writeFile(paths.meta, JSON.stringify(renewed)).catch(() => undefined);
  return renewed;
}

/** Turns cached rows back into the events the decoders made (same fields, same order). */
function eventsOf(
  rows: Float64Array,
  count: number,
  meta: CacheMeta,
  tradeIds: readonly string[],
): MarketEvent[] {
  const out: MarketEvent[] = new Array(count);
  for (let i = 0, o = 0; i < count; i++, o += STRIDE) {
    const kind = rows[o] as number;
    const sym = meta.syms[rows[o + 1] as number] as string;
    const ts = rows[o + 2] as number;
    const recvTs = rows[o + 3] as number;
    if (kind === QUOTE) {
      out[i] = {
        kind: 'quote',
        sym,
        ts,
        recvTs,
        bid: rows[o + 4] as number,
        bidQty: rows[o + 5] as number,
        ask: rows[o + 6] as number,
        askQty: rows[o + 7] as number,
      } satisfies QuoteEvent;
    } else if (kind === TRADE) {
      out[i] = {
        kind: 'trade',
        sym,
        ts,
        recvTs,
        tradeId: tradeIds[rows[o + 7] as number] as string,
        price: rows[o + 4] as number,
        qty: rows[o + 5] as number,
        side: rows[o + 6] === 0 ? 'BUY' : 'SELL',
      } satisfies MarketTradeEvent;
    } else {
      out[i] = {
        kind: 'bar',
        sym,
        ts,
        recvTs,
        interval: meta.intervals[rows[o + 4] as number] as BarInterval,
        openTime: rows[o + 5] as number,
        open: rows[o + 6] as number,
        high: rows[o + 7] as number,
        low: rows[o + 8] as number,
        close: rows[o + 9] as number,
        volume: rows[o + 10] as number,
        closed: rows[o + 11] === 1,
      } satisfies BarEvent;
    }
  }
  return out;
}

async function* readCache(recording: string, meta: CacheMeta): AsyncGenerator<MarketEvent[]> {
  const handle = await open(eventCachePaths(recording).data, 'r');
  try {
    let position = 0;
    for (const chunk of meta.chunks) {
      const bytes = chunk.rows * STRIDE * 8;
      const buffer = Buffer.allocUnsafeSlow(bytes);
      const { bytesRead } = await handle.read(buffer, 0, bytes, position);
      if (bytesRead !== bytes) throw new Error(`event cache of ${recording}: truncated at byte ${position}`);
      position += bytes;
      const rows = new Float64Array(buffer.buffer, buffer.byteOffset, chunk.rows * STRIDE);
      yield eventsOf(rows, chunk.rows, meta, chunk.tradeIds);
    }
  } finally {
    await handle.close();
  }
}

/** Writes the cache while the recording is replayed from the file; gives up on the first event it cannot hold. */
class CacheWriter {
  private readonly syms = new Map<string, number>();
  private readonly intervals = new Map<string, number>();
  private readonly chunks: { rows: number; tradeIds: string[] }[] = [];
  private bytes = 0;
  private failed = false;

  constructor(
    private readonly handle: FileHandle,
    private readonly partial: string,
  ) {}

  /** @returns false when the batch holds an event the cache cannot hold (the cache is then dropped) */
  async add(batch: readonly MarketEvent[]): Promise<boolean> {
    if (this.failed) return false;
    const rows = new Float64Array(batch.length * STRIDE);
    const tradeIds: string[] = [];
    for (let i = 0; i < batch.length; i++) {
      if (!this.encode(batch[i] as MarketEvent, rows, i * STRIDE, tradeIds)) {
        this.failed = true;
        return false;
      }
    }
    try {
      await this.handle.write(new Uint8Array(rows.buffer));
    } catch {
      // A cache that cannot be written (disk full) is no reason to stop the backtest.
      this.failed = true;
      return false;
    }
    this.chunks.push({ rows: batch.length, tradeIds });
    this.bytes += rows.byteLength;
    return true;
  }

  private index(table: Map<string, number>, key: string): number {
    let i = table.get(key);
    if (i === undefined) {
      i = table.size;
      table.set(key, i);
    }
    return i;
  }

  private encode(e: MarketEvent, rows: Float64Array, o: number, tradeIds: string[]): boolean {
    rows[o + 1] = this.index(this.syms, e.sym);
    rows[o + 2] = e.ts;
    rows[o + 3] = e.recvTs;
    const keys = Object.keys(e).length;
    switch (e.kind) {
      case 'quote':
        if (keys !== QUOTE_KEYS) return false;
        rows[o] = QUOTE;
        rows.set([e.bid, e.bidQty, e.ask, e.askQty], o + 4);
        return true;
      case 'trade':
        if (keys !== TRADE_KEYS) return false;
        rows[o] = TRADE;
        rows.set([e.price, e.qty, e.side === 'BUY' ? 0 : 1, tradeIds.push(e.tradeId) - 1], o + 4);
        return true;
      case 'bar':
        if (keys !== BAR_KEYS) return false;
        rows[o] = BAR;
        rows.set(
          [
            this.index(this.intervals, e.interval),
            e.openTime,
            e.open,
            e.high,
            e.low,
            e.close,
            e.volume,
            e.closed ? 1 : 0,
          ],
          o + 4,
        );
        return true;
      default:
        return false;
    }
  }

  async finish(recording: string, decoderId: string, source: CacheMeta['source']): Promise<void> {
    await this.handle.close();
    if (this.failed) {
      await rm(this.partial, { force: true });
      return;
    }
    const paths = eventCachePaths(recording);
    const meta: CacheMeta = {
      format: FORMAT,
      decoderId,
      source,
      syms: [...this.syms.keys()],
      intervals: [...this.intervals.keys()],
      chunks: this.chunks,
      bytes: this.bytes,
    };
    await rename(this.partial, paths.data);
    await writeFile(paths.meta, JSON.stringify(meta));
  }

  async abandon(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    await rm(this.partial, { force: true });
  }
}

/**
 * A recording's market events in batches: from its cache when valid, else from `readFresh`,
 * writing the cache on the way (when the directory is writable and every event can be cached).
 * The events are the same either way, so results do not depend on the cache.
 * @param recording - the recording's path
 * @param decoderId - names the decoder (and its version): a cache made by another is stale
 * @param readFresh - reads and decodes the recording itself
 * @returns batches of market events, in recording order
 */
export async function* cachedMarketEvents(
  recording: string,
  decoderId: string,
  readFresh: () => AsyncIterable<readonly MarketEvent[]>,
): AsyncGenerator<readonly MarketEvent[]> {
  const meta = await validMeta(recording, decoderId);
  if (meta !== undefined) {
    yield* readCache(recording, meta);
    return;
  }
  const before = await stat(recording);
  // A file of this writer's own: backtests of the same recording running at once (sweep workers,
  // test files) each write theirs, and the last rename wins with the same content.
  const partial = `${eventCachePaths(recording).data}.${process.pid}-${++partialCount}.partial`;
  const writer = await open(partial, 'w')
    .then((handle) => new CacheWriter(handle, partial))
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
        await writer.finish(recording, decoderId, source).catch(() => writer.abandon());
      } else {
        await writer.abandon();
      }
    }
  }
}
