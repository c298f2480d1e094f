import { writeSync } from 'node:fs';
import { readLines } from './line-reader.ts';
import type { RecordCodec, RecordLog } from './record-log.ts';
import type { SpillDirectory } from './spill-directory.ts';

/** Bytes of encoded lines held before they are written out. */
const BUFFER_BYTES = 1 << 18;

/**
 * Records a log holds as they are before it starts writing its file (Keel's choice): a short run
 * (a bar backtest's few thousand fills) then pays no encoding, writing or decoding at all, and a
 * long one holds at most this many before everything goes to the file.
 */
export const KEEP_IN_MEMORY = 4096;

/**
 * Records kept in an append-only file of one encoded line each, in a {@link SpillDirectory}:
 * only a bounded buffer is in memory (the first {@link KEEP_IN_MEMORY} records as they are, then
 * a write buffer of encoded lines). Appending ends with {@link SpillLog.seal}; from then on the
 * log is a {@link RecordLog}: each iteration reads the file again, in chunks, and decodes line
 * by line (or gives the records held, for a log that never outgrew its memory share). Iterating
 * after the directory was disposed throws, either way.
 * @typeParam T - the record type
 */
export class SpillLog<T> implements RecordLog<T> {
  private fd: number | undefined;
  /**
   * The write buffer: each line is encoded into it as it comes, so the line is garbage at once
   * and no joined string nor its encoded copy is made per flush. Made at the first line written.
   */
  private out: Buffer | undefined;
  /** Bytes of `out` in use. */
  private used = 0;
  private count = 0;
  private sealed = false;
  private readonly path: string;
  /** The records as appended, until there are more than `keep`; then undefined and all in the file. */
  private held: T[] | undefined = [];
  private readonly keep: number;

  /**
   * Creates the log's file.
   * @param dir - the run's spill directory
   * @param name - what the records are, e.g. `fills`: names the file and error messages
   * @param codec - how a record becomes a line and back
   * @param options - records held as they are before the file is used (default
   *   {@link KEEP_IN_MEMORY}; 0 writes every record to the file)
   * @throws Error (from fs) when the file cannot be created
   */
  constructor(
    private readonly dir: SpillDirectory,
    private readonly name: string,
    private readonly codec: RecordCodec<T>,
    options: { readonly keepInMemory?: number } = {},
  ) {
    this.path = dir.file(`${name}.jsonl`);
    this.fd = dir.open(this.path);
    this.keep = Math.max(0, options.keepInMemory ?? KEEP_IN_MEMORY);
  }

  /** Number of records appended. */
  get length(): number {
    return this.count;
  }

  /**
   * Whether the next record appended is held as it is rather than written as its line: a caller
   * that would build a record only to have it written (e.g. a copy with one more field) may
   * append its line instead once this is false.
   */
  get holdsNext(): boolean {
    return this.held !== undefined && this.held.length < this.keep;
  }

  /**
   * Appends a record.
   * @param record - the record
   * @throws Error when the log is sealed
   */
  append(record: T): void {
    if (this.sealed) throw new Error(`the ${this.name} log is sealed; no record can be added`);
    if (this.held !== undefined && this.held.length < this.keep) {
      this.held.push(record);
      this.count++;
      return;
    }
    this.appendLine(this.codec.encode(record));
  }

  /**
   * Appends a line a codec of the same kind made (copying between logs without decoding).
   * @param line - an encoded record, without a line break
   * @throws Error when the log is sealed
   */
  appendLine(line: string): void {
    if (this.sealed) throw new Error(`the ${this.name} log is sealed; no record can be added`);
    this.spillHeld();
    this.write(line);
    this.count++;
  }

  /**
   * Ends appending: writes the buffer out and closes the file.
   * @returns this log, now readable
   */
  seal(): this {
    if (this.sealed) return this;
    this.flush();
    if (this.fd !== undefined) this.dir.close(this.fd);
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
    if (this.held !== undefined) {
      for (const record of this.held) yield this.codec.encode(record);
      return;
    }
    yield* readLines(this.path);
  }

  /**
   * Iterates the records, decoding each line as it is read.
   * @returns the records in append order
   * @throws Error when the log is not sealed, was disposed, or a line does not decode
   */
  *[Symbol.iterator](): Iterator<T> {
    if (this.held !== undefined) {
      if (!this.sealed)
        throw new Error(`the ${this.name} log is still being written; seal it before reading`);
      if (this.dir.isDisposed)
        throw new Error(`the ${this.name} log was disposed with its result; its records are gone`);
      yield* this.held;
      return;
    }
    let i = 0;
    for (const line of this.lines()) {
      yield this.codec.decode(line, `${this.name}[${i}]`);
      i++;
    }
  }

  /** Moves the records held as they are to the write buffer: from now on everything goes to the file. */
  private spillHeld(): void {
    const held = this.held;
    if (held === undefined) return;
    this.held = undefined;
    for (const record of held) this.write(this.codec.encode(record));
  }

  /** Puts a line and its line break in the write buffer, writing the buffer out first when it might not fit. */
  private write(line: string): void {
    // A UTF-16 unit takes at most 3 bytes of UTF-8.
    const most = line.length * 3 + 1;
    if (this.used + most > BUFFER_BYTES) this.flush();
    if (most > BUFFER_BYTES) {
      const bytes = Buffer.from(`${line}\n`);
      if (this.fd !== undefined) writeAll(this.fd, bytes, bytes.length);
      return;
    }
    this.out ??= Buffer.allocUnsafe(BUFFER_BYTES);
    const out = this.out;
    this.used += out.write(line, this.used);
    out[this.used++] = 0x0a;
  }

  private flush(): void {
    if (this.used === 0 || this.fd === undefined || this.out === undefined) return;
    writeAll(this.fd, this.out, this.used);
    this.used = 0;
  }
}

/** Writes the first `length` bytes of `bytes` to the file, again for what a short write left. */
function writeAll(fd: number, bytes: Buffer, length: number): void {
  let done = 0;
  while (done < length) done += writeSync(fd, bytes, done, length - done);
}
