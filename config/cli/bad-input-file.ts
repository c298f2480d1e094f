import { RecordingFormatError } from '../../backtest/recording/index.ts';

/**
 * Whether an error a command met is a bad input file (exit 2, as a bad config): a recording whose
 * header cannot be read, or none of whose lines after it holds market data Keel can read while
 * some are malformed (`UnreadableRecordingError`), thrown as it is or as the cause of an error
 * that says where the config names it. Other malformed lines never stop a run: they are skipped
 * and warned about.
 * @param error - what the command caught
 * @returns true for a RecordingFormatError, or an error caused by one
 */
export function isBadInputFile(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 8; depth++) {
    if (cause instanceof RecordingFormatError) return true;
    cause = cause.cause;
  }
  return false;
}
