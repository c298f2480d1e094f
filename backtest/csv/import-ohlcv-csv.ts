import { realpathSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { makePrivateDir } from '../files/index.ts';
import { RecordingWriter } from '../recording/index.ts';
import { type OhlcvCsvBars, type OhlcvCsvSource, openOhlcvCsv } from './read-ohlcv-csv.ts';
import { checkRecordingOutput, stagedRecordingPath } from './recording-output.ts';

/** What to import and where. */
export interface OhlcvImportOptions extends OhlcvCsvSource {
  /**
   * The recording to write (`.jsonl` or `.jsonl.gz`); replaced when it exists, its folder made when
   * it does not. It is written beside under a hidden name (see `stagedRecordingPath`) and renamed
   * into place when complete, so an interrupted import leaves the old file (or none), never a shortened one.
   */
  readonly output: string;
  /**
   * Called once the recording is complete, just before it replaces `output` (the file a link
   * there points to): e.g. to move an earlier file there aside. Not called when the import fails,
   * so a CSV that is not bars leaves `output` as it was.
   * @param target - the path the recording is about to be renamed to
   */
  readonly beforeReplace?: (target: string) => void;
}

/** What an import wrote. */
export interface OhlcvImportSummary
  extends Pick<
    OhlcvCsvBars,
    'interval' | 'firstOpenTime' | 'lastCloseTime' | 'skipped' | 'columns' | 'warnings'
  > {
  readonly output: string;
  readonly bars: number;
}

/**
 * Imports an OHLCV CSV file into a session recording of closed KLINE pushes, one per bar,
 * each received at its bar's close time, so a bar backtest replays it like a recorded session.
 * The file is checked whole first, then read again a chunk at a time as the recording is written,
 * so memory does not grow with its size ({@link openOhlcvCsv}).
 * @param options - input, output, sym and the CSV reading options
 * @returns how many bars, the interval, the time span, the rows skipped, the columns read and what looks wrong
 * @throws CsvImportError naming file and line when the CSV cannot be read as bars (see
 *   {@link openOhlcvCsv}, which it shares with a backtest replaying a CSV), or naming the
 *   output when it is the CSV itself or not a `.jsonl` / `.jsonl.gz` name (checked before reading)
 * @throws TypeError when the sym is not a sym Keel knows
 */
export async function importOhlcvCsv(options: OhlcvImportOptions): Promise<OhlcvImportSummary> {
  checkRecordingOutput(options.input, options.output);
  const bars = openOhlcvCsv(options);
  // As a backtest makes its out/: only once the CSV has read as bars, so a bad file leaves no folder.
  await makePrivateDir(dirname(options.output));
  // Written aside and renamed into place when complete: an import killed half-way leaves no
  // valid-looking recording that ends early (each gzip member is whole, so nothing would tell).
  // Through a symbolic link, the file it points to is replaced, not the link.
  const target = existingRealPath(options.output);
  const partial = await stagedRecordingPath(target);
  const writer = await RecordingWriter.open(partial, bars.header);
  let complete = false;
  let warnings: readonly string[];
  try {
    warnings = bars.readPushes((msg) => writer.append(msg.data.ts, 'market-data', msg));
    writer.close();
    options.beforeReplace?.(target);
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
    bars: bars.bars,
    interval: bars.interval,
    firstOpenTime: bars.firstOpenTime,
    lastCloseTime: bars.lastCloseTime,
    skipped: bars.skipped,
    columns: bars.columns,
    warnings,
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
