import type { RecordCodec, RecordLog, SpillDirectory } from '../report/index.ts';

/**
 * The records of a journal that never wrote its files (a short run), as they were held, in
 * creation order. They are encoded once, when first read, and read back through the codec, so
 * they come out exactly as a journal that wrote them would give them; a run whose records are
 * never read (a sweep reading only metrics) encodes none. Reading after the run's spill
 * directory was disposed throws, as for a written log.
 * @typeParam T - what the journal held per record
 * @typeParam R - the record read back
 */
export class HeldJournalLog<T, R> implements RecordLog<R> {
  private encoded: string[] | undefined;

  /**
   * @param dir - the run's spill directory, whose disposal ends the records
   * @param held - each record's last state, in creation order
   * @param encode - writes a held record as the line the codec reads
   * @param codec - how a line reads back as a record
   * @param name - what the records are, for errors
   */
  constructor(
    private readonly dir: SpillDirectory,
    private readonly held: readonly T[],
    private readonly encode: (record: T) => string,
    private readonly codec: RecordCodec<R>,
    private readonly name: string,
  ) {}

  /** Number of records. */
  get length(): number {
    return this.held.length;
  }

  /**
   * The records' encoded lines, in creation order.
   * @returns one line per record
   * @throws Error when the run's spill directory was disposed
   */
  lines(): readonly string[] {
    if (this.dir.isDisposed)
      throw new Error(`the ${this.name} log was disposed with its result; its records are gone`);
    this.encoded ??= this.held.map((record) => this.encode(record));
    return this.encoded;
  }

  /**
   * Iterates the records, each read back from its line.
   * @returns the records in creation order
   * @throws Error when the run's spill directory was disposed
   */
  *[Symbol.iterator](): Iterator<R> {
    const lines = this.lines();
    for (let i = 0; i < lines.length; i++) yield this.codec.decode(lines[i] as string, `${this.name}[${i}]`);
  }
}
