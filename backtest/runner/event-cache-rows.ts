import { open } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import type { BarInterval, MarketEvent } from '../../core/model/index.ts';
import { CachedBar, CachedGap, CachedQuote, CachedTrade } from './cached-market-events.ts';
import type { EventCacheMeta } from './event-cache-meta.ts';

/** Float64 fields per cached event: kind, sym, ts, recvTs and 8 fields. */
export const STRIDE = 12;
/** Row kind of a quote. */
const QUOTE = 0;
/** Row kind of a trade. */
const TRADE = 1;
/** Row kind of a bar. */
const BAR = 2;
/** Row kind of a gap (a recording's gap record). */
const GAP = 3;
/** Own keys of a decoded quote, trade, bar and gap: an event with others is not cached. */
const QUOTE_KEYS = 8;
const TRADE_KEYS = 8;
const BAR_KEYS = 12;
const GAP_KEYS = 6;

/** Bytes a read of the data file asks for at most, unless one chunk is larger (Keel's choice). */
const READ_BYTES = 1 << 20;
/**
 * Events made at a time from a read (whole chunks; more only for a larger chunk): made all at
 * once, a MiB's events would mostly wait through young-generation collections, be moved to the
 * old generation and cost a full collection each, where those made as they are asked for die young.
 */
const YIELD_EVENTS = 1024;

/**
 * Turns cached rows back into the events the decoders made (same fields, same order).
 * @param rows - the chunk's rows
 * @param count - how many rows
 * @param meta - the cache's meta (sym and interval tables)
 * @param tradeIds - the chunk's trade ids
 * @param out - where the events go, from `at` on
 * @param at - the index of the chunk's first event in `out`
 */
function eventsOf(
  rows: Float64Array,
  count: number,
  meta: EventCacheMeta,
  tradeIds: readonly string[],
  out: MarketEvent[],
  at: number,
): void {
  for (let i = at, o = 0; i < at + count; i++, o += STRIDE) {
    const kind = rows[o] as number;
    const sym = meta.syms[rows[o + 1] as number] as string;
    const ts = rows[o + 2] as number;
    const recvTs = rows[o + 3] as number;
    if (kind === QUOTE) {
      out[i] = new CachedQuote(
        sym,
        ts,
        recvTs,
        rows[o + 4] as number,
        rows[o + 5] as number,
        rows[o + 6] as number,
        rows[o + 7] as number,
      );
    } else if (kind === TRADE) {
      out[i] = new CachedTrade(
        sym,
        ts,
        recvTs,
        tradeIds[rows[o + 7] as number] as string,
        rows[o + 4] as number,
        rows[o + 5] as number,
        rows[o + 6] === 0 ? 'BUY' : 'SELL',
      );
    } else if (kind === GAP) {
      out[i] = new CachedGap(
        sym,
        ts,
        recvTs,
        rows[o + 4] as number,
        (meta.reasons ?? [])[rows[o + 5] as number] as string,
      );
    } else {
      out[i] = new CachedBar(
        sym,
        ts,
        recvTs,
        meta.intervals[rows[o + 4] as number] as BarInterval,
        rows[o + 5] as number,
        rows[o + 6] as number,
        rows[o + 7] as number,
        rows[o + 8] as number,
        rows[o + 9] as number,
        rows[o + 10] as number,
        rows[o + 11] === 1,
      );
    }
  }
}

/** A cache whose data file does not hold what its meta says: bytes changed or cut short. */
export class EventCacheDamagedError extends Error {
  /**
   * @param recording - the recording the cache is of
   * @param position - the byte of the data file where the damaged chunk starts
   * @param what - what is wrong
   */
  constructor(recording: string, position: number, what: string) {
    super(`event cache of ${recording}: ${what} in the chunk at byte ${position}`);
    this.name = 'EventCacheDamagedError';
  }
}

/**
 * Reads a valid cache in reads of about a MiB (a chunk holds one batch of the recording's reader,
 * a few hundred events: a read each cost more than its events), checking each chunk's CRC-32
 * before any event of the read is given, and makes the events about a thousand at a time, as
 * they are asked for.
 * @param recording - the recording's path, for errors
 * @param data - the cache's data path
 * @param meta - the cache's meta
 * @returns the events in batches of whole chunks, in recording order
 * @throws EventCacheDamagedError when a chunk is cut short or its CRC-32 does not match
 */
export async function* readEventCache(
  recording: string,
  data: string,
  meta: EventCacheMeta,
): AsyncGenerator<MarketEvent[]> {
  const handle = await open(data, 'r');
  try {
    const chunks = meta.chunks;
    let position = 0;
    for (let first = 0; first < chunks.length; ) {
      // The chunks of this read: at least one, then as many as keep it within READ_BYTES.
      let end = first + 1;
      let bytes = (chunks[first]?.rows ?? 0) * STRIDE * 8;
      for (; end < chunks.length; end++) {
        const more = (chunks[end]?.rows ?? 0) * STRIDE * 8;
        if (bytes + more > READ_BYTES) break;
        bytes += more;
      }
      const buffer = Buffer.allocUnsafeSlow(bytes);
      const { bytesRead } = await handle.read(buffer, 0, bytes, position);
      for (let c = first, at = 0; c < end; c++) {
        const chunk = chunks[c] as EventCacheMeta['chunks'][number];
        const size = chunk.rows * STRIDE * 8;
        if (at + size > bytesRead)
          throw new EventCacheDamagedError(recording, position + at, 'the data file is cut short');
        if (crc32(buffer.subarray(at, at + size)) !== chunk.crc)
          throw new EventCacheDamagedError(recording, position + at, 'the CRC-32 does not match');
        at += size;
      }
      position += bytes;
      for (let c = first, at = 0; c < end; ) {
        let count = 0;
        let last = c;
        for (; last < end && (count === 0 || count + (chunks[last]?.rows ?? 0) <= YIELD_EVENTS); last++)
          count += chunks[last]?.rows ?? 0;
        const out: MarketEvent[] = new Array(count);
        for (let filled = 0; c < last; c++) {
          const chunk = chunks[c] as EventCacheMeta['chunks'][number];
          const view = new Float64Array(
            buffer.buffer,
            buffer.byteOffset + at * STRIDE * 8,
            chunk.rows * STRIDE,
          );
          eventsOf(view, chunk.rows, meta, chunk.tradeIds, out, filled);
          filled += chunk.rows;
          at += chunk.rows;
        }
        yield out;
      }
      first = end;
    }
  } finally {
    await handle.close();
  }
}

/** A string's number in a table (syms, intervals), added when new. */
function indexIn(table: Map<string, number>, key: string): number {
  let i = table.get(key);
  if (i === undefined) {
    i = table.size;
    table.set(key, i);
  }
  return i;
}

/**
 * Writes an event as a row.
 * @param e - the event
 * @param rows - the chunk's rows
 * @param o - where the row starts in `rows`
 * @param tradeIds - the chunk's trade ids, a trade's id appended
 * @param syms - the sym table, a new sym added
 * @param intervals - the interval table, a new interval added
 * @param reasons - the gap reason table, a new reason added
 * @returns false when the event has other fields than the decoders make (it cannot be cached)
 */
export function encodeRow(
  e: MarketEvent,
  rows: Float64Array,
  o: number,
  tradeIds: string[],
  syms: Map<string, number>,
  intervals: Map<string, number>,
  reasons: Map<string, number>,
): boolean {
  rows[o + 1] = indexIn(syms, e.sym);
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
          indexIn(intervals, e.interval),
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
    case 'gap':
      if (keys !== GAP_KEYS) return false;
      rows[o] = GAP;
      rows.set([e.fromTs, indexIn(reasons, e.reason)], o + 4);
      return true;
    default:
      return false;
  }
}
