import { renameSync, rmSync } from 'node:fs';
import { stagedImportInWorker } from './ohlcv-import-in-worker.ts';
import type { OhlcvCsvSource } from './read-ohlcv-csv.ts';
import { checkRecordingOutput } from './recording-output.ts';
import {
  type OhlcvImportSummary,
  type StagedOhlcvImport,
  writeStagedOhlcvImport,
} from './staged-ohlcv-import.ts';

export type { OhlcvImportSummary } from './staged-ohlcv-import.ts';

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
   * there points to): e.g. to move an earlier file there aside. Not called when the import fails
   * or is stopped, so a CSV that is not bars leaves `output` as it was.
   * @param target - the path the recording is about to be renamed to
   */
  readonly beforeReplace?: (target: string) => void;
  /**
   * Stops the import (Ctrl-C): given, the import runs on a worker thread, which the abort
   * terminates at once, its staged file removed and `output` left as it was.
   */
  readonly signal?: AbortSignal;
}

/**
 * Imports an OHLCV CSV file into a session recording of closed KLINE pushes, one per bar,
 * each received at its bar's close time, so a bar backtest replays it like a recorded session.
 * The file is checked whole first, then read again a chunk at a time as the recording is written,
 * so memory does not grow with its size (`openOhlcvCsv`).
 * @param options - input, output, sym, the CSV reading options and what stops it
 * @returns how many bars, the interval, the time span, the rows skipped, the columns read and what looks wrong
 * @throws CsvImportError naming file and line when the CSV cannot be read as bars (see
 *   `openOhlcvCsv`, which it shares with a backtest replaying a CSV), or naming the
 *   output when it is the CSV itself or not a `.jsonl` / `.jsonl.gz` name (checked before reading)
 * @throws TypeError when the sym is not a sym Keel knows
 * @throws the abort's reason when `signal` stopped it: nothing written
 */
export async function importOhlcvCsv(options: OhlcvImportOptions): Promise<OhlcvImportSummary> {
  checkRecordingOutput(options.input, options.output);
  const { beforeReplace, signal, ...reading } = options;
  const written: StagedOhlcvImport =
    signal === undefined
      ? await writeStagedOhlcvImport(reading)
      : await stagedImportInWorker(reading, signal);
  // Written aside and renamed into place when complete: an import killed half-way leaves no
  // valid-looking recording that ends early (each gzip member is whole, so nothing would tell).
  let complete = false;
  try {
    signal?.throwIfAborted();
    beforeReplace?.(written.target);
    renameSync(written.staged, written.target);
    complete = true;
  } finally {
    if (!complete) rmSync(written.staged, { force: true });
  }
  return written.summary;
}
