import { resolve } from 'node:path';
import type { Logger } from 'pino';
import { ohlcvCsvWarnings, readOhlcvCsvBars } from '../../backtest/csv/index.ts';
import {
  mergeByRecvTs,
  type RecordedMessage,
  RecordingDamage,
  readEventBatches,
  readSessionHeader,
  warnToStderr,
} from '../../backtest/recording/index.ts';
import { marketEventIdentity, RecordingOverlaps } from '../../backtest/runner/index.ts';
import {
  formatPeriod,
  type Kernel,
  type KernelWarmUp,
  type WarmUpCoverage,
} from '../../core/kernel/index.ts';
import type { MarketEvent } from '../../core/model/index.ts';
import { decodeMarketMessage } from '../../core/venue/index.ts';
import type { LoadedConfig } from '../loader/index.ts';
import { type HistorySource, warmUpPeriodOf } from '../schema/index.ts';
import { SESSION_KLINE_INTERVALS } from './market-subscriptions.ts';
import { type NotedFile, noteFile, whereNow } from './moved-file.ts';
import { ohlcvCsvSourceOf } from './ohlcv-csv-sources.ts';

/** Market data of a recording only: its User Data was another session's. */
function decodeMarketData(record: RecordedMessage): MarketEvent | null | Error {
  return record.source === 'market-data' ? decodeMarketMessage(record.msg, record.recvTs) : null;
}

/**
 * The warm-up of a paper or live run: the config's period, and its history files read as one
 * stream of market events in receive-time order (recordings through the venue's market-data
 * decoders, as a backtest replays them; OHLCV CSVs read as `keel import-csv` reads them, each bar
 * received at its close). Every file is opened here, so a missing or unreadable one stops the
 * run before it starts, naming the config key and the path. A recording is read where it is when
 * the warm-up runs: when it is the session's own `recording.path`, the recorder has moved it
 * aside under a dated name by then, and that file is read. A recording line that cannot be read
 * or decoded is skipped and told to `damage`, as a backtest skips it. An event one history file
 * repeats of another at the same receive time (overlapping recordings, one listed twice) is
 * replayed once, as a backtest replays it; the drops are told to `warn` once the history is read.
 * An OHLCV CSV's rows skipped (`skipInvalid`) and what looks wrong in it (a US equity's times that
 * look like New York time read as UTC) are told to `warn` when it is opened, as a backtest tells
 * them.
 * @param loaded - a validated config of mode paper or live
 * @param damage - counts the recordings' skipped lines; default: the first of each kind on stderr
 * @param warn - told a sentence per OHLCV CSV's skipped rows or doubtful times, and per pair of
 *   history files that repeat each other's events; default: stderr
 * @returns the kernel's warm-up, or undefined when the config has none
 * @throws Error naming `warmUp.history[i]` and the file when one cannot be read
 */
export async function warmUpOf(
  loaded: LoadedConfig,
  damage: RecordingDamage = new RecordingDamage(warnToStderr),
  warn: (message: string) => void = (message) => process.stderr.write(`${message}\n`),
): Promise<KernelWarmUp | undefined> {
  const warmUp = loaded.config.warmUp;
  if (warmUp === undefined) return undefined;
  const history = warmUp.history ?? [];
  const opened = await Promise.all(history.map((source, i) => historySource(loaded, source, i, damage)));
  // Told in the config's order, whichever file was read first.
  for (const warning of opened.flatMap((source) => source.warnings)) warn(`warm-up: ${warning}`);
  const sources = opened.map((source) => source.events);
  const overlaps = new RecordingOverlaps();
  const merged = mergeByRecvTs(sources, 4096, { key: marketEventIdentity, onRepeat: overlaps.note });
  const names = history.map((source) => (typeof source === 'string' ? source : source.csv));
  return {
    ...warmUpPeriodOf(warmUp),
    history: toldRepeats(merged, () => overlaps.warnings(names), warn),
    // The live feed's klines go on where the history's of their interval end; the history's other bars do not.
    liveBarIntervals: SESSION_KLINE_INTERVALS,
  };
}

/** The merged history, telling `warn` of the repeats it dropped once it is read (or left). */
async function* toldRepeats(
  merged: AsyncIterable<readonly MarketEvent[]>,
  warnings: () => readonly string[],
  warn: (message: string) => void,
): AsyncGenerator<readonly MarketEvent[]> {
  try {
    yield* merged;
  } finally {
    for (const warning of warnings()) warn(`warm-up: ${warning}`);
  }
}

/** A warm-up history file opened: its events, and what a CSV's reading warns of. */
interface OpenedHistory {
  readonly events: AsyncIterable<readonly MarketEvent[]>;
  readonly warnings: readonly string[];
}

async function historySource(
  loaded: LoadedConfig,
  source: HistorySource,
  index: number,
  damage: RecordingDamage,
): Promise<OpenedHistory> {
  const where = `${loaded.file}: warmUp.history[${index}]`;
  if (typeof source === 'string') {
    const path = resolve(loaded.dir, source);
    await readSessionHeader(path).catch((error: unknown) => {
      throw new Error(`${where}: cannot read the recording ${path}: ${(error as Error).message}`);
    });
    // Read where the file is when the warm-up runs: the session's recorder may have moved it
    // aside by then (a history that is the session's own earlier recording at recording.path).
    return { events: movedReadable(noteFile(path), damage), warnings: [] };
  }
  const path = resolve(loaded.dir, source.csv);
  let events: MarketEvent[];
  let warnings: string[];
  try {
    // Read as keel import-csv and a backtest read it, with the entry's reading options.
    const bars = await readOhlcvCsvBars({ ...ohlcvCsvSourceOf(source, loaded.dir), input: path });
    warnings = ohlcvCsvWarnings(path, bars);
    events = bars.messages.map((msg) => {
      const event = decodeMarketMessage(msg, msg.data.ts);
      if (event === null || event instanceof Error)
        throw new Error(
          `${path}: the bar opening at ${new Date(msg.data.openTime).toISOString()} is not a bar (${String(event)})`,
        );
      return event;
    });
  } catch (error) {
    // The CSV reader's errors name the file and line themselves (`<file>: cannot be read (...)`).
    throw new Error(`${where}: ${(error as Error).message}`);
  }
  return { events: onceAsBatch(events), warnings };
}

async function* movedReadable(
  noted: NotedFile,
  damage: RecordingDamage,
): AsyncGenerator<readonly MarketEvent[]> {
  yield* readEventBatches(whereNow(noted), decodeMarketData, { onMalformed: 'skip', onWarning: damage.note });
}

async function* onceAsBatch(events: readonly MarketEvent[]): AsyncGenerator<readonly MarketEvent[]> {
  if (events.length > 0) yield events;
}

/**
 * What a session says of its warm-up: a warning when the history did not cover the period,
 * saying how much of it the run's instruments' events covered, which instruments it held nothing
 * of, and the syms it held instead when they are none of the run's.
 * @param coverage - what the kernel's warm-up replayed
 * @param periodMs - the period asked for
 * @returns the warning, or undefined when the period was covered
 */
export function warmUpCoverageWarning(coverage: WarmUpCoverage, periodMs: number): string | undefined {
  if (coverage.complete) return undefined;
  const iso = (ts: number) => new Date(ts).toISOString();
  const want = `the ${formatPeriod(periodMs)} warm-up from ${iso(coverage.from)} to ${iso(coverage.until)}`;
  const others =
    coverage.otherSyms.length === 0
      ? ''
      : ` (it holds ${coverage.otherSyms.join(', ')}, not an instrument of the run)`;
  if (coverage.first === undefined || coverage.last === undefined)
    return `warm-up: the history holds no event of the run's instruments (${coverage.uncovered.join(', ')}) for ${want}${others}; the strategies start cold (check warmUp.history)`;
  const parts: string[] = [];
  // An instrument alone, or with the interval when another watched interval of it is covered.
  const syms = coverage.uncovered.filter((label) => !label.includes(' '));
  const intervals = coverage.uncovered.filter((label) => label.includes(' '));
  if (syms.length > 0)
    parts.push(
      `warm-up: the history holds no bar or trade of ${syms.join(', ')} for ${want}${others}; strategies on ${syms.length === 1 ? 'it' : 'them'} start cold (check warmUp.history)`,
    );
  if (intervals.length > 0)
    parts.push(
      `warm-up: the history holds nothing that builds the bars of ${intervals.join(', ')} (no trade, nor bar of that interval or a finer one dividing it: 1h bars build no 5m bar) for ${want}; those bars start cold (give warmUp.history finer bars or trades)`,
    );
  // A history falling short as a whole is said below, once.
  if (coverage.short.length > 0 && coverage.reaches)
    parts.push(
      `warm-up: the bars and trades of ${coverage.short.join(', ')} in the history do not reach over ${want}; indicators on ${coverage.short.length === 1 ? 'it' : 'them'} may not be ready when trading starts`,
    );
  if (!coverage.reaches)
    parts.push(
      `warm-up: the history covers only ${formatPeriod(coverage.last - coverage.first)} of ${want} (${coverage.events} events, ${iso(coverage.first)} to ${iso(coverage.last)}); indicators may not be ready when trading starts`,
    );
  return parts.join('; ');
}

/**
 * Waits for the kernel's warm-up on history (none: at once) and logs how it went.
 * @param kernel - the session's kernel, started
 * @param finished - the kernel's start promise: it rejects when reading the history fails
 * @param warmUp - the session's warm-up, if any
 * @param logger - where the outcome is logged (a warning when the history fell short)
 * @returns the warning for the report, or undefined
 * @throws what reading the history threw
 */
export async function warmUpBeforeTrading(
  kernel: Pick<Kernel, 'whenTrading'>,
  finished: Promise<void>,
  warmUp: KernelWarmUp | undefined,
  logger: Pick<Logger, 'info' | 'warn'>,
): Promise<string | undefined> {
  if (warmUp === undefined) return undefined;
  const coverage = await Promise.race([kernel.whenTrading(), finished.then(() => undefined)]);
  if (coverage === undefined) return undefined;
  const warning = warmUpCoverageWarning(coverage, warmUp.periodMs);
  if (warning !== undefined) logger.warn(warning);
  else
    logger.info(
      { events: coverage.events, from: new Date(coverage.from).toISOString() },
      `warmed up on ${formatPeriod(warmUp.periodMs)} of history`,
    );
  return warning;
}
