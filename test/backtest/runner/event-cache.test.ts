import { existsSync } from 'node:fs';
import { readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gapRecordMessage, RecordingDamage, readEventBatches } from '../../../backtest/recording/index.ts';
import { resultToJson } from '../../../backtest/report/index.ts';
import { cachedMarketEvents, eventCachePaths } from '../../../backtest/runner/event-cache.ts';
import type { EventCacheMeta } from '../../../backtest/runner/event-cache-meta.ts';
import { runBacktest } from '../../../backtest/runner/index.ts';
import { decodeSessionRecord } from '../../../config/session-decoder.ts';
import type { MarketEvent } from '../../../core/model/index.ts';
import { decodeMarketRecord } from '../../kit/bar-recordings.ts';
import { quotingBacktestOptions } from '../../kit/quoting-backtest-options.ts';
import { syntheticSessionFile } from '../../kit/synthetic-session-files.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';

const decode = decodeMarketRecord;

/** The session decoder, which makes a gap record a gap event. */
const decodeWithGaps = (record: Parameters<typeof decodeSessionRecord>[0]) =>
  decodeSessionRecord(record) as MarketEvent | null | Error;

/**
 * A copy of `path` with a gap record (its connection dropped 3 s before) after each of the records
 * at a third and two thirds of the file.
 */
async function withGapRecords(path: string, out: string): Promise<string> {
  const [header, ...records] = (await readFile(path, 'utf8')).trimEnd().split('\n');
  const at = [Math.floor(records.length / 3), Math.floor((2 * records.length) / 3)];
  const lines = records.flatMap((line, i) => {
    if (!at.includes(i)) return [line];
    const { recvTs } = JSON.parse(line) as { recvTs: number };
    const gap = {
      kind: 'gap',
      sym: BTC,
      ts: recvTs,
      recvTs,
      fromTs: recvTs - 3000,
      reason: 'its connection dropped',
    } as const;
    return [line, JSON.stringify({ recvTs, source: 'market-data', msg: gapRecordMessage(gap) })];
  });
  await writeFile(out, `${[header, ...lines].join('\n')}\n`);
  return out;
}

async function collect(source: AsyncIterable<readonly MarketEvent[]>): Promise<MarketEvent[]> {
  const out: MarketEvent[] = [];
  for await (const batch of source) out.push(...batch);
  return out;
}

describe('event cache of a recording', () => {
  const session = syntheticSessionFile({ seed: 5, minutes: 4 });

  const fresh = () => readEventBatches(session.path, decode) as AsyncIterable<readonly MarketEvent[]>;

  it('gives back exactly the decoded quotes, trades and bars, field for field, from the second read on', async () => {
    const decoded = await collect(fresh());
    expect(new Set(decoded.map((e) => e.kind))).toEqual(new Set(['quote', 'trade', 'bar']));
    const first = await collect(cachedMarketEvents(session.path, 'test-v1', fresh, new RecordingDamage()));
    expect(existsSync(eventCachePaths(session.path).data)).toBe(true);
    let freshReads = 0;
    const second = await collect(
      cachedMarketEvents(
        session.path,
        'test-v1',
        () => {
          freshReads++;
          return fresh();
        },
        new RecordingDamage(),
      ),
    );
    expect(freshReads).toBe(0);
    expect(first).toEqual(decoded);
    expect(second).toEqual(decoded);
    expect(second.map((e) => Object.keys(e))).toEqual(decoded.map((e) => Object.keys(e)));
  });

  it('reads many chunks at once but makes their events about a thousand at a time, whole chunks per batch', async () => {
    const recording = join(session.dir, 'small-chunks.jsonl');
    await writeFile(recording, 'the cache keys on size, times and hash only\n');
    // 40 chunks of 100 quotes: one read of the data file.
    const quotes: MarketEvent[] = Array.from({ length: 4000 }, (_, n) => ({
      kind: 'quote',
      sym: BTC,
      ts: 1000 + n,
      recvTs: 1000 + n,
      bid: 100 + n,
      bidQty: 1,
      ask: 101 + n,
      askQty: 1,
    }));
    const inChunks = async function* () {
      for (let i = 0; i < quotes.length; i += 100) yield quotes.slice(i, i + 100);
    };
    await collect(cachedMarketEvents(recording, 'test-reads', inChunks, new RecordingDamage()));
    const batches: (readonly MarketEvent[])[] = [];
    for await (const batch of cachedMarketEvents(recording, 'test-reads', inChunks, new RecordingDamage()))
      batches.push(batch);
    expect(batches.map((b) => b.length)).toEqual([1000, 1000, 1000, 1000]);
    expect(batches.flat()).toEqual(quotes);
  });

  it('is rebuilt when the source or the decoder changes, and kept when the file is only touched', async () => {
    await collect(cachedMarketEvents(session.path, 'test-v1', fresh, new RecordingDamage()));
    let freshReads = 0;
    const counting = () => {
      freshReads++;
      return fresh();
    };
    await collect(cachedMarketEvents(session.path, 'test-v2', counting, new RecordingDamage()));
    expect(freshReads).toBe(1);
    const later = new Date(Date.UTC(2030, 0, 1));
    await utimes(session.path, later, later);
    await collect(cachedMarketEvents(session.path, 'test-v2', counting, new RecordingDamage()));
    expect(freshReads).toBe(1);
    const text = await readFile(session.path, 'utf8');
    const lines = text.trimEnd().split('\n');
    // Same size, different content: the hash tells.
    const last = lines[lines.length - 1] as string;
    lines[lines.length - 1] = last.replace(
      /"recvTs":(\d)/,
      (_, d: string) => `"recvTs":${(Number(d) + 1) % 10}`,
    );
    await writeFile(session.path, `${lines.join('\n')}\n`);
    await utimes(session.path, later, later);
    await collect(cachedMarketEvents(session.path, 'test-v2', counting, new RecordingDamage()));
    expect(freshReads).toBe(2);
    await writeFile(session.path, text);
  });

  it('is rebuilt after an edit that kept the size and put the old mtime back', async () => {
    const text = await readFile(session.path, 'utf8');
    // A whole-second mtime, so putting it back restores it exactly (as `touch -d` or `cp -p` can).
    const mtime = new Date(Date.UTC(2031, 0, 1));
    await utimes(session.path, mtime, mtime);
    await collect(cachedMarketEvents(session.path, 'test-v3', fresh, new RecordingDamage()));
    expect((await stat(session.path)).mtimeMs).toBe(mtime.getTime());
    const edited = text.replace(/"recvTs":(\d)/, (_, d: string) => `"recvTs":${(Number(d) + 1) % 10}`);
    expect(edited.length).toBe(text.length);
    await writeFile(session.path, edited);
    await utimes(session.path, mtime, mtime);
    let freshReads = 0;
    await collect(
      cachedMarketEvents(
        session.path,
        'test-v3',
        () => {
          freshReads++;
          return fresh();
        },
        new RecordingDamage(),
      ),
    );
    expect(freshReads).toBe(1);
    await writeFile(session.path, text);
  });

  it('is rebuilt with a warning when its data file was damaged in place, giving every event once', async () => {
    const decoded = await collect(fresh());
    const paths = eventCachePaths(session.path);
    await collect(cachedMarketEvents(session.path, 'test-crc', fresh, new RecordingDamage()));
    const good = await readFile(paths.data);
    const meta = JSON.parse(await readFile(paths.meta, 'utf8')) as EventCacheMeta;
    // Several chunks, so damage after the first is found with events already given.
    expect(meta.chunks.length).toBeGreaterThan(2);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: good.length - 1 }),
        fc.integer({ min: 1, max: 255 }),
        fc.boolean(),
        async (at, xor, zeroTail) => {
          const damaged = Buffer.from(good);
          // A flipped byte, or the zeros a crash can leave where blocks were never written.
          if (zeroTail) damaged.fill(0, at);
          else damaged[at] = (damaged[at] as number) ^ xor;
          if (damaged.equals(good)) return;
          await writeFile(paths.data, damaged);
          await writeFile(paths.meta, JSON.stringify(meta));
          const warnings: string[] = [];
          let freshReads = 0;
          const counting = () => {
            freshReads++;
            return fresh();
          };
          const events = await collect(
            cachedMarketEvents(session.path, 'test-crc', counting, new RecordingDamage(), (w) =>
              warnings.push(w),
            ),
          );
          expect(events).toEqual(decoded);
          expect(freshReads).toBe(1);
          expect(warnings).toEqual([
            expect.stringMatching(
              /event cache of .*: the CRC-32 does not match in the chunk at byte \d+: dropped it and rebuilding it from the recording$/,
            ),
          ]);
          // Rebuilt whole: the next run reads it without the recording.
          expect((await readFile(paths.data)).equals(good)).toBe(true);
          const again = await collect(
            cachedMarketEvents(session.path, 'test-crc', counting, new RecordingDamage()),
          );
          expect(again).toEqual(decoded);
          expect(freshReads).toBe(1);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('is not written when a recording holds events it cannot hold', async () => {
    const other = join(session.dir, 'with-book.jsonl');
    await writeFile(other, await readFile(session.path, 'utf8'));
    const withBook = () =>
      (async function* () {
        yield [{ kind: 'book', sym: BTC, ts: 1, recvTs: 1, bids: [], asks: [] } as MarketEvent];
      })();
    await collect(cachedMarketEvents(other, 'test-v1', withBook, new RecordingDamage()));
    expect(existsSync(eventCachePaths(other).meta)).toBe(false);
    expect(existsSync(`${eventCachePaths(other).data}.partial`)).toBe(false);
  });

  it('holds the gap events of a recording with gap records, field for field, from the second read on', async () => {
    const gapped = await withGapRecords(session.path, join(session.dir, 'gapped-events.jsonl'));
    const freshGapped = () =>
      readEventBatches(gapped, decodeWithGaps) as AsyncIterable<readonly MarketEvent[]>;
    const decoded = await collect(freshGapped());
    expect(decoded.filter((e) => e.kind === 'gap')).toHaveLength(2);
    await collect(cachedMarketEvents(gapped, 'test-gaps', freshGapped, new RecordingDamage()));
    let freshReads = 0;
    const second = await collect(
      cachedMarketEvents(
        gapped,
        'test-gaps',
        () => {
          freshReads++;
          return freshGapped();
        },
        new RecordingDamage(),
      ),
    );
    expect(freshReads).toBe(0);
    expect(second).toEqual(decoded);
    expect(second.map((e) => Object.keys(e))).toEqual(decoded.map((e) => Object.keys(e)));
  });

  it('replays a recording with gap records from its cache, warning of each hole with the same result bytes', async () => {
    const gapped = await withGapRecords(session.path, join(session.dir, 'gapped-run.jsonl'));
    // A gate serves one run: each run's options are made afresh.
    const options = () => quotingBacktestOptions(gapped, decodeWithGaps);
    const plain = resultToJson(await runBacktest(options()));
    const cachedOptions = () => ({ ...options(), eventCache: { decoderId: 'test-gaps-run' } });
    const built = resultToJson(await runBacktest(cachedOptions()));
    expect(existsSync(eventCachePaths(gapped).meta)).toBe(true);
    const fromCache = await runBacktest(cachedOptions());
    expect(fromCache.meta.warnings).toContainEqual(
      expect.stringMatching(
        /^recording .*gapped-run\.jsonl: market data was missed 2 times while it was recorded \(its connection dropped\), the first for BINANCE_PERP_BTC_USDT .*; the run replayed each hole as a market without events$/,
      ),
    );
    expect(built).toBe(plain);
    expect(resultToJson(fromCache)).toBe(plain);
  });

  it('leaves the backtest result byte-identical', async () => {
    // A gate serves one run: each run's options are made afresh.
    const options = () => quotingBacktestOptions(session.path, decode);
    const plain = await runBacktest(options());
    const cached = await runBacktest({ ...options(), eventCache: { decoderId: 'test-mm' } });
    const fromCache = await runBacktest({ ...options(), eventCache: { decoderId: 'test-mm' } });
    expect(resultToJson(cached)).toBe(resultToJson(plain));
    expect(resultToJson(fromCache)).toBe(resultToJson(plain));
  });
});
