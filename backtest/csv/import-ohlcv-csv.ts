import { realpathSync, renameSync, rmSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { type BarInterval, parseSym } from '../../core/model/index.ts';
import { RecordingWriter } from '../recording/index.ts';
import { CsvImportError } from './csv-import-error.ts';
import { klineMessage } from './kline-messages.ts';
import type { SkippedRow } from './ohlcv-bar.ts';
import { type OhlcvCsvOptions, parseOhlcvCsv } from './parse-ohlcv-csv.ts';
import { checkRecordingOutput, stagedRecordingPath } from './recording-output.ts';
import { usEquityZoneWarning } from './us-equity-zone-check.ts';

/** The `venue` a recording written by the importer names in its header. */
export const IMPORT_VENUE = 'csv-import';

/** What to import and where. */
export interface OhlcvImportOptions extends Omit<OhlcvCsvOptions, 'file'> {
  /** The CSV file. */
  readonly input: string;
  /**
   * The recording to write (`.jsonl` or `.jsonl.gz`); replaced when it exists, its folder made when
   * it does not. It is written beside under a hidden name (see `stagedRecordingPath`) and renamed
   * into place when complete, so an interrupted import leaves the old file (or none), never a shortened one.
   */
  readonly output: string;
  /** The sym the bars belong to, e.g. `BINANCE_SPOT_BTC_USDT` or `US_EQUITY_AAPL`. */
  readonly sym: string;
  /** Marks the recording synthetic (generated data saved as CSV); default false. */
  readonly synthetic?: boolean;
}

/** What an import wrote. */
export interface OhlcvImportSummary {
  readonly output: string;
  readonly bars: number;
  readonly interval: BarInterval;
  readonly firstOpenTime: number;
  readonly lastCloseTime: number;
  readonly skipped: readonly SkippedRow[];
  /** What looks wrong though the file read (a US equity's times that look like New York time read as UTC). */
  readonly warnings: readonly string[];
}

/**
 * Imports an OHLCV CSV file into a session recording of closed KLINE pushes, one per bar,
 * each received at its bar's close time, so a bar backtest replays it like a recorded session.
 * @param options - input, output, sym and the CSV reading options
 * @returns how many bars, the interval, the time span, the rows skipped and what looks wrong
 * @throws CsvImportError naming file and line when the CSV cannot be read as bars, or naming the
 *   output when it is the CSV itself or not a `.jsonl` / `.jsonl.gz` name (checked before reading)
 * @throws TypeError when the sym is not a sym Keel knows
 */
export async function importOhlcvCsv(options: OhlcvImportOptions): Promise<OhlcvImportSummary> {
  parseSym(options.sym);
  checkRecordingOutput(options.input, options.output);
  let text: string;
  try {
    text = await readFile(options.input, 'utf8');
  } catch (cause) {
    throw new CsvImportError(options.input, 0, `cannot be read (${(cause as Error).message})`);
  }
  const contents = parseOhlcvCsv(text, { ...options, file: options.input });
  const messages = contents.bars.map((bar) => klineMessage(options.sym, contents.interval, bar));
  const zoneWarning = usEquityZoneWarning(
    options.sym,
    contents.interval,
    contents.bars.map((bar) => bar.openTime),
    options.zone ?? 'UTC',
  );
  const first = messages[0]?.data;
  const last = messages[messages.length - 1]?.data;
  if (first === undefined || last === undefined)
    throw new CsvImportError(options.input, 0, 'the file holds no bars');
  // As a backtest makes its out/: only once the CSV has read as bars, so a bad file leaves no folder.
  await mkdir(dirname(options.output), { recursive: true });
  // Written aside and renamed into place when complete: an import killed half-way leaves no
  // valid-looking recording that ends early (each gzip member is whole, so nothing would tell).
  // Through a symbolic link, the file it points to is replaced, not the link.
  const target = existingRealPath(options.output);
  const partial = await stagedRecordingPath(target);
  const writer = await RecordingWriter.open(partial, {
    venue: IMPORT_VENUE,
    symbols: [options.sym],
    startTime: first.openTime,
    synthetic: options.synthetic === true,
    description: `OHLCV bars imported from ${basename(options.input)} (${contents.interval}, times read in ${options.zone ?? 'UTC'}${options.timestampIs === 'close' ? ', stamped at close' : ''}${options.adjust === true ? ', adjusted by Adj Close' : ''})`,
  });
  let complete = false;
  try {
    for (const msg of messages) writer.append(msg.data.ts, 'market-data', msg);
    writer.close();
    renameSync(partial, target);
    complete = true;
  } finally {
    if (!complete) {
      writer.close();
      rmSync(partial, { force: true });
    }
  }
  return {
    output: options.output,
    bars: messages.length,
    interval: contents.interval,
    firstOpenTime: first.openTime,
    lastCloseTime: last.ts,
    skipped: contents.skipped,
    warnings: zoneWarning === undefined ? [] : [zoneWarning],
  };
}

/** The real path of a file that exists (through symbolic links), else the path as given. */
function existingRealPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
