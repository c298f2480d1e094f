import type { RecordingDamage } from './recording-damage.ts';
import { RecordingFormatError } from './recording-errors.ts';

/**
 * A recording that gave no event while some of its lines after the header were malformed (not
 * JSON, not a record, or a message the decoder refused): most likely not a Keel recording of this
 * venue at all (a CSV, another tool's JSONL behind a header), so a run of it would replay nothing
 * and pass. Its `line` and `reason` are those of the first malformed line. A recording with no line
 * after its header, or only a crash's damage (a truncated last line, damaged compressed data), is
 * not one: it is empty, not wrong.
 */
export class UnreadableRecordingError extends RecordingFormatError {
  /** How many of its lines after the header were malformed. */
  readonly malformed: number;

  /**
   * @param file - the recording
   * @param malformed - how many lines were malformed
   * @param first - the first of them: its line number and what is wrong with it
   */
  constructor(file: string, malformed: number, first: { readonly line: number; readonly reason: string }) {
    super(file, first.line, first.reason);
    this.name = 'UnreadableRecordingError';
    this.malformed = malformed;
    const lines = malformed === 1 ? '1 line after its header is' : `${malformed} lines after its header are`;
    this.message = `${file} holds no market data Keel can read: ${lines} malformed, the first at ${file}:${first.line}: ${first.reason}. Is it a Keel recording of this venue? (\`keel import-csv\` turns a CSV of bars into one)`;
  }
}

/**
 * A recording's event batches, refused at their end when they held none while `damage` counted
 * malformed lines of the recording ({@link UnreadableRecordingError}): the one rule of every path
 * that replays a recording (a backtest, from the file or its event cache; a paper venue's feed).
 * A recording with some readable lines goes on with its skipped lines counted and warned of.
 * @param file - the recording
 * @param batches - its event batches
 * @param damage - the tally its reader (or cache) told its skipped lines to
 * @returns the same batches
 * @throws UnreadableRecordingError at the end, when none came and some lines were malformed
 */
export async function* refusingUnreadable<T>(
  file: string,
  batches: AsyncIterable<readonly T[]>,
  damage: RecordingDamage,
): AsyncGenerator<readonly T[], void, undefined> {
  let events = 0;
  for await (const batch of batches) {
    events += batch.length;
    yield batch;
  }
  if (events > 0) return;
  const malformed = damage.malformedIn(file);
  if (malformed !== undefined) throw new UnreadableRecordingError(file, malformed.count, malformed.first);
}
