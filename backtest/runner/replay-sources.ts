import type { MarketEvent } from '../../core/model/index.ts';
import {
  mergeByRecvTs,
  RecordingDamage,
  readEventBatches,
  readSessionHeader,
  refusingUnreadable,
  type SessionHeader,
  warnToStderr,
} from '../recording/index.ts';
import type { BacktestRunOptions } from './backtest-run-options.ts';
import { windowWithWarmUp } from './backtest-warm-up.ts';
import { type CsvReplay, csvReplay } from './csv-replay.ts';
import { EmptyReplayWindowError } from './empty-replay-window.ts';
import { cachedMarketEvents } from './event-cache.ts';
import { marketEventIdentity } from './market-event-identity.ts';
import { OutsideWindowSpans } from './outside-window-spans.ts';
import { RecordingEndTimes } from './recording-end-times.ts';
import { RecordingGaps } from './recording-gaps.ts';
import { RecordingOverlaps } from './recording-overlaps.ts';
import { type ReplaySource, replaySourceName } from './replay-source.ts';
import { marketOnly, type RecordedSpan, within } from './replay-window.ts';

/**
 * Events of a replay batch by default (Keel's choice): the events of a batch are made before the
 * first of them is replayed, and a batch a few thousand long kept most of them waiting through
 * young-generation collections, moved to the old generation, where each costs a full collection.
 */
export const DEFAULT_BATCH_SIZE = 1024;

/** What opening a run's recordings takes of its options. */
export type ReplaySourceOptions = Pick<
  BacktestRunOptions,
  'recordings' | 'decode' | 'batchSize' | 'onRecordingDamage' | 'window' | 'warmUp' | 'eventCache'
>;

/** The recordings of a run, opened for replay. */
export interface ReplaySources {
  /** Each recording's session header, in the order given. */
  readonly headers: readonly SessionHeader[];
  /** The first batch of market events in time order (empty when the recordings hold none). */
  readonly firstBatch: readonly MarketEvent[];
  /** Reads the next batch; undefined once every recording is read to its end. */
  readonly readAhead: () => Promise<readonly MarketEvent[] | undefined>;
  /** The lines of the recordings skipped so far (whole once `readAhead` gave undefined). */
  readonly damage: RecordingDamage;
  /** The events dropped so far as one recording's repeats of another's (whole once read to the end). */
  readonly overlaps: RecordingOverlaps;
  /** The gaps of the recordings in the window (their recorder lost its connection), counted as read. */
  readonly gaps: RecordingGaps;
  /** The recordings' last receive times, kept by their valid event caches or read. */
  readonly ends: RecordingEndTimes;
  /** Why each damaged event cache met so far was dropped and rebuilt, for the result's warnings. */
  readonly damagedCaches: readonly string[];
  /** What the OHLCV CSVs among the sources skipped or look wrong in, for the result's warnings. */
  readonly csvWarnings: readonly string[];
  /** The span of each sym's events the window left out, whole once every recording was read to its end. */
  readonly outside: OutsideWindowSpans;
  /** Closes the recordings (or caches) still open: a run that ends before reading them to the end calls it. */
  readonly close: () => Promise<void>;
}

/**
 * Opens the run's recordings: their market events (through the event cache when the options give
 * one; an OHLCV CSV read whole as `keel import-csv` reads it, never cached), inside the replay window widened by the warm-up, merged by receive time in batches, the
 * first batch read. An event one recording repeats of another at the same receive time (recordings
 * that overlap, or one listed twice) is replayed once, the drop counted in `overlaps`. A line that cannot be read or decoded is skipped and counted (its first of each
 * kind told to `options.onRecordingDamage`), never the end of the run, unless the recording gave no
 * event at all (`UnreadableRecordingError`). A damaged event cache is dropped and rebuilt,
 * said in `damagedCaches`.
 * @param options - the run's recordings, decoder, window, warm-up, batch size and event cache
 * @returns the headers, the first batch, the reader of the next ones, the skipped lines, the
 *   dropped repeats, the recorded gaps, the recordings' end times, the damaged caches and `close`
 * @throws CsvImportError when an OHLCV CSV cannot be read as bars; RecordingFormatError when a recording has no readable header; UnreadableRecordingError
 *   (a RecordingFormatError) when one gave no event and some of its lines were malformed, as its
 *   first batch is read; Error when a recording cannot be read; EmptyReplayWindowError when the
 *   window holds no event of the recordings
 */
export async function openReplaySources(options: ReplaySourceOptions): Promise<ReplaySources> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  // The CSVs are read (whole, as an import reads them) before any recording is opened: a CSV that
  // is not bars stops the run with nothing to close.
  const csvs = await Promise.all(
    options.recordings.map((source) =>
      typeof source === 'string' ? undefined : csvReplay(source, options.decode, batchSize),
    ),
  );
  const headers = await Promise.all(
    options.recordings.map((source, i) => csvs[i]?.header ?? readSessionHeader(replaySourceName(source))),
  );
  const damage = new RecordingDamage(options.onRecordingDamage ?? warnToStderr);
  const gaps = new RecordingGaps(options.window);
  // A recording of malformed lines only is refused as its read ends, so no event cache is kept of it.
  const fresh = (path: string) => () =>
    refusingUnreadable(
      path,
      readEventBatches<MarketEvent>(path, (record) => marketOnly(record, options.decode), {
        onMalformed: 'skip',
        onWarning: damage.note,
        onTimeJump: damage.note,
      }),
      damage,
    );
  const cache = options.eventCache;
  const ends = new RecordingEndTimes(options.window?.to);
  const span: RecordedSpan = { first: undefined, last: undefined };
  const outside = new OutsideWindowSpans();
  const overlaps = new RecordingOverlaps();
  const damagedCaches: string[] = [];
  const cacheDamaged = (message: string): void => {
    damagedCaches.push(message);
  };
  for (const [i, csv] of csvs.entries())
    if (csv !== undefined)
      ends.forCache(replaySourceName(options.recordings[i] as ReplaySource)).fromCache(csv.lastRecvTs);
  const sources = mergeByRecvTs(
    options.recordings.map((source, i) => {
      const path = replaySourceName(source);
      return within(
        // Gaps are counted as the events leave the file or its cache, so both warn alike.
        gaps.counting(
          path,
          csvs[i] !== undefined
            ? (csvs[i] as CsvReplay).batches
            : cache === undefined
              ? fresh(path)()
              : // A cache an earlier Keel kept of such a recording is refused as the recording is.
                refusingUnreadable(
                  path,
                  cachedMarketEvents(
                    path,
                    cache.decoderId,
                    fresh(path),
                    damage,
                    cacheDamaged,
                    ends.forCache(path),
                  ),
                  damage,
                ),
        ),
        windowWithWarmUp(options.window, options.warmUp),
        span,
        outside,
      );
    }),
    batchSize,
    { key: marketEventIdentity, onRepeat: overlaps.note },
  );
  const iterator = sources[Symbol.asyncIterator]();
  const first = await iterator.next();
  const firstBatch: readonly MarketEvent[] = first.done ? [] : first.value;
  // An empty window read every recording to its end: the span is whole.
  if (first.done && options.window !== undefined)
    throw new EmptyReplayWindowError(options.window, span.first, span.last);
  const readAhead = async (): Promise<readonly MarketEvent[] | undefined> => {
    const next = await iterator.next();
    return next.done ? undefined : next.value;
  };
  const close = async (): Promise<void> => {
    await iterator.return?.();
  };
  const csvWarnings = csvs.flatMap((csv) => csv?.warnings ?? []);
  return {
    headers,
    firstBatch,
    readAhead,
    damage,
    overlaps,
    gaps,
    ends,
    damagedCaches,
    csvWarnings,
    outside,
    close,
  };
}
