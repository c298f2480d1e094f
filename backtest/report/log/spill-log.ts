import { closeSync, openSync, writeSync } from 'node:fs';
import { readLines } from './line-reader.ts';
import type { RecordCodec, RecordLog } from './record-log.ts';
import type { SpillDirectory } from './spill-directory.ts';

/** Characters of encoded lines held before they are written out. */
const BUFFER_CHARS = 1 << 18;

/**
 * Records kept in an append-only file of one encoded line each, in a {@link SpillDirectory}:
 * only a bounded write buffer is in memory. Appending ends with {@link SpillLog.seal}; from then
 * on the log is a {@link RecordLog}: each iteration reads the file again, in chunks, and decodes
 * line by line. Iterating after the directory was disposed throws.
 * @typeParam T - the record type
 */
export class SpillLog<T> implements RecordLog<T> {
  private fd: number | undefined;
  private buffer: string[] = [];
  private buffered = 0;
  private count = 0;
  private sealed = false;
  private readonly path: string;

  /**
   * Creates the log's file.
   * @param dir - the run's spill directory
   * @param name - what the records are, e.g. `fills`: names the file and error messages
   * @param codec - how a record becomes a line and back
   * @throws Error (from fs) when the file cannot be created
   */
  constructor(
    private readonly dir: SpillDirectory,
    private readonly name: string,
    private readonly codec: RecordCodec<T>,
  ) {
    this.path = dir.file(`${name}.jsonl`);
    this.fd = openSync(this.path, 'w');
  }

  /** Number of records appended. */
  get length(): number {
    return this.count;
  }

  /**
   * Appends a record.
   * @param record - the record
   * @throws Error when the log is sealed
   */
  append(record: T): void {
    this.appendLine(this.codec.encode(record));
  }

  /**
   * Appends a line a codec of the same kind made (copying between logs without decoding).
   * @param line - an encoded record, without a line break
   * @throws Error when the log is sealed
   */
  appendLine(line: string): void {
    if (this.sealed) throw new Error(`the ${this.name} log is sealed; no record can be added`);
    this.buffer.push(line);
    this.buffered += line.length + 1;
    this.count++;
    if (this.buffered >= BUFFER_CHARS) this.flush();
  }

  /**
   * Ends appending: writes the buffer out and closes the file.
   * @returns this log, now readable
   */
  seal(): this {
    if (this.sealed) return this;
    this.flush();
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.sealed = true;
    return this;
  }

  /**
   * The encoded lines, read from the file in chunks.
   * @returns one line per record, in append order
   * @throws Error when the log is not sealed yet or its directory was disposed
   */
  *lines(): Generator<string> {
    if (!this.sealed) throw new Error(`the ${this.name} log is still being written; seal it before reading`);
    if (this.dir.isDisposed)
      throw new Error(`the ${this.name} log was disposed with its result; its records are gone`);
    yield* readLines(this.path);
  }

  /**
   * Iterates the records, decoding each line as it is read.
   * @returns the records in append order
   * @throws Error when the log is not sealed, was disposed, or a line does not decode
   */
  *[Symbol.iterator](): Iterator<T> {
    let i = 0;
    for (const line of this.lines()) {
      yield this.codec.decode(line, `${this.name}[${i}]`);
      i++;
    }
  }

  private flush(): void {
    if (this.buffer.length === 0 || this.fd === undefined) return;
    writeSync(this.fd, `${this.buffer.join('\n')}\n`);
    this.buffer = [];
    this.buffered = 0;
  }
}
