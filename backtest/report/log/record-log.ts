/**
 * A re-iterable sequence of records with a known length: what a backtest result holds its
 * orders, fills and trades as. A plain array is one (small results, tests, results read from a
 * small file); a {@link SpillLog} is another, kept in a temporary file and read back in chunks on
 * each iteration, so a long run's records do not sit in memory.
 * @typeParam T - the record type
 */
export interface RecordLog<T> extends Iterable<T> {
  /** Number of records; iterating yields exactly this many. */
  readonly length: number;
}

/**
 * Turns records into one line of text and back: how a {@link SpillLog} stores them.
 * @typeParam T - the record type
 */
export interface RecordCodec<T> {
  /**
   * @param record - the record
   * @returns one line of text without a line break
   */
  readonly encode: (record: T) => string;
  /**
   * @param line - a line `encode` made
   * @param where - where the line is, for the error message
   * @returns the record
   * @throws Error naming `where` when the line is not a record
   */
  readonly decode: (line: string, where: string) => T;
}

/**
 * Whether a record log can hand out its records' encoded lines (a file-backed log can), so a
 * writer copies them instead of decoding and encoding each record again.
 * @param log - a record log
 * @returns true when `log.lines()` exists
 */
export function hasLines<T>(log: RecordLog<T>): log is RecordLog<T> & { lines(): Iterable<string> } {
  return typeof (log as { lines?: unknown }).lines === 'function';
}

/**
 * The first records of a log, stopping the iteration there (a file-backed log reads no further).
 * @param log - the records
 * @param count - how many at most
 * @returns up to `count` records, in log order
 */
export function firstRecords<T>(log: Iterable<T>, count: number): T[] {
  const out: T[] = [];
  if (count <= 0) return out;
  for (const record of log) {
    out.push(record);
    if (out.length >= count) break;
  }
  return out;
}
