import { realpathSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { makePrivateDir } from '../files/index.ts';
import { RecordingWriter } from '../recording/index.ts';
import { type OhlcvCsvBars, type OhlcvCsvSource, openOhlcvCsv } from './read-ohlcv-csv.ts';
import { stagedRecordingPath } from './recording-output.ts';

/** What to import and where, as plain data (it crosses to a worker thread). */
export interface StagedOhlcvImportOptions extends OhlcvCsvSource {
  /** The recording the staged file is to replace. */
  readonly output: string;
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

/** A recording written whole under its staged name, waiting to be renamed into place. */
export interface StagedOhlcvImport {
  /** The staged file. */
  readonly staged: string;
  /** The file it is to replace: `output`, or the file a link there points to. */
  readonly target: string;
  readonly summary: OhlcvImportSummary;
}

/**
 * Reads an OHLCV CSV as bars and writes their recording whole under a hidden staged name beside
 * the output (see `stagedRecordingPath`), for the caller to rename into place. The output's folder
 * is made only once the CSV has read as bars, so a bad file leaves no folder (as a backtest makes
 * its out/). A failed write removes the staged file.
 * @param options - input, output, sym and the CSV reading options
 * @returns the staged file, the file it replaces and what was written
 * @throws CsvImportError naming file and line when the CSV cannot be read as bars
 * @throws TypeError when the sym is not a sym Keel knows
 */
export async function writeStagedOhlcvImport(options: StagedOhlcvImportOptions): Promise<StagedOhlcvImport> {
  const bars = openOhlcvCsv(options);
  await makePrivateDir(dirname(options.output));
  // Through a symbolic link, the file it points to is replaced, not the link.
  const target = existingRealPath(options.output);
  const staged = await stagedRecordingPath(target);
  const writer = await RecordingWriter.open(staged, bars.header);
  let warnings: readonly string[];
  let complete = false;
  try {
    warnings = bars.readPushes((msg) => writer.append(msg.data.ts, 'market-data', msg));
    writer.close();
    complete = true;
  } finally {
    if (!complete) {
      writer.close();
      rmSync(staged, { force: true });
    }
  }
  return {
    staged,
    target,
    summary: {
      output: options.output,
      bars: bars.bars,
      interval: bars.interval,
      firstOpenTime: bars.firstOpenTime,
      lastCloseTime: bars.lastCloseTime,
      skipped: bars.skipped,
      columns: bars.columns,
      warnings,
    },
  };
}

/**
 * The real path of a file that exists (through symbolic links), else the path as given.
 * @param path - the output
 * @returns the file written in its place
 */
export function existingRealPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
