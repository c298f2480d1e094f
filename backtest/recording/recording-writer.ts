import {
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { gzipSync } from 'node:zlib';
import { openPrivateSync } from '../files/index.ts';
import type { MessageSource } from './recorded-message.ts';
import { type RecordingWarning, recordingWarning, warnToStderr } from './recording-errors.ts';
import { isGzipPath, readRecordBatches, readSessionHeader } from './recording-reader.ts';
import { type SessionHeader, type SessionHeaderInit, sessionHeader } from './session-header.ts';

/** Buffered text (UTF-16 units) that triggers a write, unless the options say otherwise. */
const DEFAULT_FLUSH_CHARS = 1 << 18;

/** Options of the recording writer. */
export interface RecordingWriterOptions {
  /**
   * Append to an existing recording instead of replacing it. A crash-torn tail is cut off first
   * (plain files) or the readable lines are rewritten (gzip), with a warning.
   */
  readonly append?: boolean;
  /** Buffered text (UTF-16 units) that triggers a write; default 256 Ki. A crash loses at most this. */
  readonly flushChars?: number;
  /** Receives repair warnings; default: a line on stderr. */
  readonly onWarning?: (warning: RecordingWarning) => void;
}

/**
 * Appends venue messages to a session recording, one JSON line each, after a header line, into a
 * file readable by its owner only (0600, also when it existed with a wider mode).
 *
 * Crash safety: lines are buffered and written whole with one write per flush, so a crash leaves
 * every flushed line intact and at most one torn line at the end, which the reader skips with a
 * warning. In `.gz` files each flush is a complete gzip member (concatenated members are one valid
 * gzip stream), so a crash damages only the last member. Output depends only on what is appended:
 * the same messages give byte-identical files.
 * @example
 * const w = await RecordingWriter.open('s.jsonl.gz', { venue, symbols, startTime, synthetic: false });
 * w.appendRaw(clock.now(), 'market-data', frameText);
 * w.close();
 */
export class RecordingWriter {
  /** The file being written. */
  readonly path: string;
  /** The header of the file (the existing one when appending). */
  readonly header: SessionHeader;
  private readonly fd: number;
  private readonly gzip: boolean;
  private readonly flushChars: number;
  private pending = '';
  private closed = false;

  private constructor(path: string, header: SessionHeader, fd: number, flushChars: number) {
    this.path = path;
    this.header = header;
    this.fd = fd;
    this.gzip = isGzipPath(path);
    this.flushChars = flushChars;
  }

  /**
   * Opens a recording for writing. A new file starts with the header, written at once so even a
   * recording that crashes immediately is a valid (empty) session.
   * @param path - `.jsonl` or `.jsonl.gz`
   * @param init - the header (ignored when appending to an existing file, whose header is kept)
   * @param options - append mode, flush size, warning handler
   * @returns the writer
   * @throws RecordingFormatError when appending to a file that is not a readable recording
   */
  static async open(
    path: string,
    init: SessionHeaderInit,
    options: RecordingWriterOptions = {},
  ): Promise<RecordingWriter> {
    const flushChars = options.flushChars ?? DEFAULT_FLUSH_CHARS;
    const warn = options.onWarning ?? warnToStderr;
    if (options.append === true && existsSync(path)) {
      const header = await readSessionHeader(path);
      if (isGzipPath(path)) await RecordingWriter.repairGzipTail(path, warn);
      else cutTornTail(path, warn);
      return new RecordingWriter(path, header, openPrivateSync(path, 'a'), flushChars);
    }
    return RecordingWriter.started(path, sessionHeader(init), flushChars);
  }

  /** A new file whose first line is this header, exactly as given. */
  private static started(path: string, header: SessionHeader, flushChars: number): RecordingWriter {
    const writer = new RecordingWriter(path, header, openPrivateSync(path, 'w'), flushChars);
    writer.pending = `${JSON.stringify(header)}\n`;
    writer.flush();
    return writer;
  }

  /**
   * A gzip file with a damaged tail cannot be appended to (new members would sit behind the
   * damage), so its readable lines are rewritten into a fresh file that replaces it, under its own
   * header exactly (an older Keel's file gains no `keel`).
   */
  private static async repairGzipTail(path: string, warn: (w: RecordingWarning) => void): Promise<void> {
    const warnings: RecordingWarning[] = [];
    let header: SessionHeader | undefined;
    const collect = (w: RecordingWarning): void => {
      warnings.push(w);
    };
    for await (const _ of readRecordBatches(path, {
      onMalformed: 'skip',
      onWarning: collect,
      onHeader: (h) => {
        header = h;
      },
    })) {
      // Only the warnings matter here: reading to the end finds a damaged tail.
    }
    if (warnings.length === 0 || header === undefined) return;
    const repairedPath = `${path}.repair.jsonl.gz`;
    const repaired = RecordingWriter.started(repairedPath, header, DEFAULT_FLUSH_CHARS);
    for await (const batch of readRecordBatches(path, { onMalformed: 'skip', onWarning: () => {} })) {
      for (const record of batch) repaired.append(record.recvTs, record.source, record.msg);
    }
    repaired.close();
    renameSync(repairedPath, path);
    warn(
      recordingWarning(
        path,
        0,
        'repaired',
        'rewrote the readable lines of a damaged gzip file before appending',
      ),
    );
  }

  /**
   * Appends a message given as parsed JSON (serialised with JSON.stringify).
   * @param recvTs - local receive time, epoch ms
   * @param source - market-data or private
   * @param msg - the venue's message
   * @throws Error when the writer is closed
   */
  append(recvTs: number, source: MessageSource, msg: unknown): void {
    this.appendRaw(recvTs, source, JSON.stringify(msg));
  }

  /**
   * Appends a message given as the venue's raw JSON text, embedded verbatim (no parse, so the
   * recording keeps exactly what was sent). Text spanning lines is re-serialised onto one line.
   * @param recvTs - local receive time, epoch ms
   * @param source - market-data or private
   * @param json - the frame's JSON text
   * @throws Error when the writer is closed
   * @throws SyntaxError when multi-line text is not JSON
   */
  appendRaw(recvTs: number, source: MessageSource, json: string): void {
    if (this.closed) throw new Error(`recording ${this.path} is closed; cannot append`);
    const oneLine = json.includes('\n') || json.includes('\r') ? JSON.stringify(JSON.parse(json)) : json;
    this.pending += `{"recvTs":${recvTs},"source":"${source}","msg":${oneLine}}\n`;
    if (this.pending.length >= this.flushChars) this.flush();
  }

  /** Whether appended lines wait in the buffer, not yet written to the file. */
  get buffered(): boolean {
    return this.pending.length > 0;
  }

  /** Writes buffered lines to the file now (one write; one gzip member for `.gz`). */
  flush(): void {
    if (this.pending.length === 0) return;
    const text = Buffer.from(this.pending, 'utf8');
    this.pending = '';
    // writeFileSync on a descriptor carries a write the file system cuts short on from where it stopped.
    writeFileSync(this.fd, this.gzip ? gzipSync(text) : text);
  }

  /**
   * Flushes, syncs the file to disk and closes it; further appends throw. Closing twice is
   * harmless. The sync makes a closed recording survive a power cut, not only a crash, and lets a
   * repaired gzip file replace the damaged one only once its lines are on disk.
   */
  close(): void {
    if (this.closed) return;
    this.flush();
    try {
      fsyncSync(this.fd);
    } finally {
      closeSync(this.fd);
      this.closed = true;
    }
  }
}

/** Cuts a plain recording back to its last newline, so appended lines start on a fresh line. */
function cutTornTail(path: string, warn: (w: RecordingWarning) => void): void {
  const fd = openSync(path, 'r+');
  try {
    const size = fstatSync(fd).size;
    const block = Buffer.allocUnsafe(1 << 16);
    let end = size;
    while (end > 0) {
      const start = Math.max(0, end - block.length);
      const read = readSync(fd, block, 0, end - start, start);
      const nl = block.subarray(0, read).lastIndexOf(10);
      if (nl !== -1) {
        const keep = start + nl + 1;
        if (keep < size) {
          ftruncateSync(fd, keep);
          warn(
            recordingWarning(
              path,
              0,
              'repaired',
              `cut ${size - keep} bytes of a torn last line before appending`,
            ),
          );
        }
        return;
      }
      end = start;
    }
  } finally {
    closeSync(fd);
  }
}
