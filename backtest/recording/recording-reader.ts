import { createReadStream } from 'node:fs';
import { type GzipDamage, gzipMemberChunks } from './gzip-members.ts';
import { keepRecord, type RecordDecoder, type RecordedMessage } from './recorded-message.ts';
import {
  RecordingFormatError,
  type RecordingWarning,
  recordingWarning,
  warnToStderr,
} from './recording-errors.ts';
import { isRecvTs } from './recv-ts.ts';
import { parseSessionHeader, type SessionHeader } from './session-header.ts';

/** How the reader treats a malformed line (bad JSON, not a record, or refused by the decoder). */
export type MalformedLinePolicy = 'stop' | 'skip';

/** Options of the recording reader. */
export interface RecordingReadOptions {
  /** 'stop' (default) throws a RecordingFormatError; 'skip' warns and goes on. */
  readonly onMalformed?: MalformedLinePolicy;
  /** Receives skipped lines and the truncated tail; default: a line on stderr. */
  readonly onWarning?: (warning: RecordingWarning) => void;
  /**
   * Told of each record giving events whose receive time is more than {@link RECV_TS_JUMP_WARN_MS}
   * from that of the record giving events before it (a `time-jump`: the line is kept); default:
   * not looked for. Records the decoder drops (null) are not compared: a paper venue stamps its
   * login and subscribe acks before its clock has read an event (0), and they are not replayed.
   */
  readonly onTimeJump?: (warning: RecordingWarning) => void;
  /** Called once with the header, before the first batch. */
  readonly onHeader?: (header: SessionHeader) => void;
  /** Bytes read from disk at a time (default 64 KiB: small batches die young, which keeps the heap small). */
  readonly chunkBytes?: number;
}

const NEWLINE = 10;
const DEFAULT_CHUNK_BYTES = 1 << 16;

/**
 * The longest line the reader reads: 16 MiB, far beyond any record (a venue message is a few
 * KiB), so a file that is not JSONL, or a gzip bomb of zero bytes, costs one pass and bounded
 * memory. A longer line is skipped as malformed (counted; policy 'stop' stops at it).
 */
export const MAX_LINE_BYTES = 16 << 20;

/**
 * Whether a path names a gzip recording (by its `.gz` extension).
 * @param path - the file path
 * @returns true for `.jsonl.gz`
 */
export function isGzipPath(path: string): boolean {
  return path.endsWith('.gz');
}

/**
 * A recording's bytes in chunks, as the reader reads them: a plain file's as they are, a gzip
 * file's inflated member by member ({@link gzipMemberChunks}), with its damage between.
 * @param path - a `.jsonl` or `.jsonl.gz` recording
 * @param chunkBytes - bytes read at a time
 * @returns the chunks, to read once; destroy() stops early
 */
export function openChunks(
  path: string,
  chunkBytes: number,
): AsyncIterable<Buffer | GzipDamage> & { destroy(): void } {
  if (!isGzipPath(path)) return createReadStream(path, { highWaterMark: chunkBytes });
  const members = gzipMemberChunks(path, chunkBytes);
  return Object.assign(members, {
    destroy: () => {
      void members.return();
    },
  });
}

/**
 * A jump between the receive times of consecutive records giving events (in file order) this large is warned
 * about: 30 days, far beyond any recorder's spacing (a restart appends after a gap of hours at
 * most), so one record stamped decades off, which would stretch the run's span and every
 * per-time metric, is named by file and line. A jump forward is warned only when it is also more
 * than {@link RECV_TS_JUMP_SPACINGS} times the recording's usual step so far (its median): a
 * daily-bar recording with a halted or missing month moves forward as it should.
 */
export const RECV_TS_JUMP_WARN_MS = 30 * 86_400_000;

/** How many of a recording's usual steps a forward jump past 30 days must also exceed to be warned. */
const RECV_TS_JUMP_SPACINGS = 100;

/**
 * The steps between receive times seen so far, counted by power of two, for their median: cheap
 * on every record, read only when a jump past 30 days comes.
 */
class StepSizes {
  private readonly counts = new Array<number>(64).fill(0);
  private total = 0;

  add(step: number): void {
    const bucket = step <= 0 ? 0 : Math.min(63, Math.floor(Math.log2(step)) + 1);
    this.counts[bucket] = (this.counts[bucket] ?? 0) + 1;
    this.total++;
  }

  /** The median step rounded up to a power of two (an upper bound), 0 before any step. */
  medianAtMost(): number {
    let seen = 0;
    for (let bucket = 0; bucket < 64; bucket++) {
      seen += this.counts[bucket] ?? 0;
      if (seen * 2 >= this.total && this.total > 0) return bucket === 0 ? 0 : 2 ** bucket;
    }
    return 0;
  }
}

/** The warning of a record whose receive time jumps far from the one before it. */
function jumpWarning(path: string, line: number, from: number, to: number): RecordingWarning {
  const days = Math.round(Math.abs(to - from) / 86_400_000);
  const reason = `recvTs jumps ${days} days ${to > from ? 'forward' : 'back'} from the record before (${new Date(from).toISOString()} to ${new Date(to).toISOString()})`;
  return recordingWarning(path, line, 'time-jump', `${reason}; kept the line`, reason);
}

/** How the reason for a line that does not parse begins. */
const NOT_JSON = 'is not JSON';

/** A line the reader skips: the kind of damage and what is wrong. */
interface LineFault {
  readonly kind: 'not-json' | 'not-a-record' | 'undecodable';
  readonly reason: string;
}

/** Why a line is not a record, as a fault (only on the malformed path, so the good path stays as lean). */
function unparsed(reason: string): LineFault {
  return { kind: reason.startsWith(NOT_JSON) ? 'not-json' : 'not-a-record', reason };
}

/** The warning of a line skipped for its fault. */
function skippedLine(path: string, line: number, fault: LineFault): RecordingWarning {
  return recordingWarning(path, line, fault.kind, `skipped a malformed line: ${fault.reason}`, fault.reason);
}

/** A record its decoder refused, as a fault. */
function undecodable(error: Error): LineFault {
  return { kind: 'undecodable', reason: `message could not be decoded: ${error.message}` };
}

/**
 * Parses a record line; returns the record or a reason it is not one. Kept free of closures and
 * of allocation beyond JSON.parse itself, because it runs once per line.
 */
function parseRecordLine(text: string): RecordedMessage | string {
  let rec: unknown;
  try {
    rec = JSON.parse(text);
  } catch (error) {
    return `${NOT_JSON} (${(error as Error).message})`;
  }
  if (typeof rec !== 'object' || rec === null) return 'is not a record object';
  const r = rec as { recvTs?: unknown; source?: unknown; msg?: unknown };
  if (!isRecvTs(r.recvTs))
    return `recvTs must be epoch milliseconds (an integer within the Date range), not ${typeof r.recvTs === 'number' ? r.recvTs : `a ${typeof r.recvTs}`}`;
  if (r.source !== 'market-data' && r.source !== 'private')
    return 'source must be "market-data" or "private"';
  if (r.msg === undefined) return 'has no msg';
  return rec as RecordedMessage;
}

/**
 * Reads a recording as batches of decoded events, in file order, with constant memory: the file
 * is read in chunks (inflated member by member for `.gz`), each chunk is decoded to text once and split on
 * newlines by hand, every line goes through JSON.parse and `decode`. One batch per chunk, so a
 * consumer can push a batch synchronously and yield to the event loop between batches.
 *
 * A last line without its newline is kept if it parses; otherwise it is a crash-truncated tail:
 * skipped with a warning whatever the policy, everything before it kept. A damaged gzip tail is
 * treated the same way. A damaged gzip member before the end (bytes that do not inflate, or whose
 * CRC-32 or length do not match) loses only its own lines: it is skipped with a warning naming its
 * bytes, whatever the policy, and the reader goes on at the next member that reads whole; line
 * numbers after it count it as one line.
 * @param path - a `.jsonl` or `.jsonl.gz` recording
 * @param decode - turns each record into an event (null drops it, an Error makes it malformed)
 * @param options - malformed-line policy, warning and header callbacks, chunk size
 * @returns an async iterable of non-empty event batches
 * @throws RecordingFormatError for a missing or bad header, or (policy 'stop') the first malformed line
 * @example
 * for await (const batch of readEventBatches('s.jsonl.gz', decode)) for (const e of batch) fold(e);
 */
export async function* readEventBatches<E>(
  path: string,
  decode: RecordDecoder<E>,
  options: RecordingReadOptions = {},
): AsyncGenerator<E[], void, undefined> {
  const stopOnMalformed = (options.onMalformed ?? 'stop') === 'stop';
  const warn = options.onWarning ?? warnToStderr;
  const stream = openChunks(path, options.chunkBytes ?? DEFAULT_CHUNK_BYTES);
  let lineNo = 0;
  let headerSeen = false;
  // The bytes of the line not yet ended, as read (joined once, when its newline comes).
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  // The line not yet ended is past MAX_LINE_BYTES: its bytes are counted, not kept.
  let overlong = false;
  let failure: RecordingFormatError | undefined;
  let damaged = false;
  const onTimeJump = options.onTimeJump;
  let lastRecvTs: number | undefined;
  const steps = new StepSizes();
  const checkJump = (recvTs: number): void => {
    if (onTimeJump === undefined) return;
    if (lastRecvTs !== undefined) {
      const step = recvTs - lastRecvTs;
      if (
        Math.abs(step) > RECV_TS_JUMP_WARN_MS &&
        (step < 0 || step > RECV_TS_JUMP_SPACINGS * steps.medianAtMost())
      )
        onTimeJump(jumpWarning(path, lineNo, lastRecvTs, recvTs));
      steps.add(step);
    }
    lastRecvTs = recvTs;
  };

  // Skips a line past the cap; returns false when reading must stop (policy 'stop', or the header).
  const skipOverlong = (bytes: number): boolean => {
    lineNo++;
    const fault: LineFault = {
      kind: 'not-a-record',
      reason: `is longer than ${MAX_LINE_BYTES / (1 << 20)} MiB (${bytes} bytes), so it was not read`,
    };
    if (!headerSeen || stopOnMalformed) {
      failure = new RecordingFormatError(path, lineNo, fault.reason);
      return false;
    }
    warn(skippedLine(path, lineNo, fault));
    return true;
  };

  // Returns false when reading must stop (policy 'stop' met a malformed line).
  const take = (text: string, out: E[]): boolean => {
    lineNo++;
    if (!headerSeen) {
      const header = parseSessionHeader(text, path);
      headerSeen = true;
      options.onHeader?.(header);
      return true;
    }
    const rec = parseRecordLine(text);
    let fault: LineFault;
    if (typeof rec === 'string') {
      fault = unparsed(rec);
    } else {
      const event = decode(rec);
      if (!(event instanceof Error)) {
        if (event === null) return true;
        checkJump(rec.recvTs);
        if (Array.isArray(event)) for (const e of event as readonly E[]) out.push(e);
        else out.push(event as E);
        return true;
      }
      fault = undecodable(event);
    }
    if (stopOnMalformed) {
      failure = new RecordingFormatError(path, lineNo, fault.reason);
      return false;
    }
    warn(skippedLine(path, lineNo, fault));
    return true;
  };

  try {
    for await (const piece of stream) {
      if (!Buffer.isBuffer(piece)) {
        damaged = true;
        if (piece.tail) {
          warn(
            recordingWarning(
              path,
              lineNo + 1,
              'damaged-gzip',
              `compressed data ends damaged at byte ${piece.from} (${piece.reason}); kept the ${lineNo} lines before`,
              piece.reason,
            ),
          );
          continue;
        }
        // The line the damage cut is lost with it; the damage counts as one line, so the lines after it are numbered apart.
        pending = [];
        pendingBytes = 0;
        overlong = false;
        lineNo++;
        const reason = `bytes ${piece.from}-${piece.to} of the compressed file are damaged (${piece.reason})`;
        warn(
          recordingWarning(
            path,
            lineNo,
            'damaged-gzip-member',
            `skipped damaged compressed data: ${reason}; kept the lines before and after it`,
            reason,
          ),
        );
        continue;
      }
      let chunk: Buffer = piece;
      const firstNl = chunk.indexOf(NEWLINE);
      const lineBytes = pendingBytes + (firstNl === -1 ? chunk.length : firstNl);
      if (overlong || lineBytes > MAX_LINE_BYTES) {
        pending = [];
        pendingBytes = firstNl === -1 ? lineBytes : 0;
        overlong = firstNl === -1;
        if (overlong) continue;
        if (!skipOverlong(lineBytes)) throw failure;
        chunk = chunk.subarray(firstNl + 1);
      }
      let lastNl = chunk.lastIndexOf(NEWLINE);
      if (lastNl === -1) {
        if (chunk.length !== 0) pending.push(chunk);
        pendingBytes += chunk.length;
        continue;
      }
      if (pending.length !== 0) {
        pending.push(chunk);
        lastNl += pendingBytes;
        chunk = Buffer.concat(pending, pendingBytes + chunk.length);
      }
      pending = lastNl + 1 < chunk.length ? [chunk.subarray(lastNl + 1)] : [];
      pendingBytes = chunk.length - lastNl - 1;
      // One utf8 decode per chunk, cut at a newline so no character is split.
      const text = chunk.toString('utf8', 0, lastNl);
      const out: E[] = [];
      let start = 0;
      let nl = text.indexOf('\n');
      while (nl !== -1) {
        if (!take(text.slice(start, nl), out)) break;
        start = nl + 1;
        nl = text.indexOf('\n', start);
      }
      if (failure === undefined) take(text.slice(start), out);
      if (out.length !== 0) yield out;
      if (failure !== undefined) throw failure;
    }
    if (overlong) {
      if (!skipOverlong(pendingBytes)) throw failure;
    } else if (pendingBytes !== 0) {
      const tail = Buffer.concat(pending, pendingBytes).toString('utf8');
      const rec = headerSeen ? parseRecordLine(tail) : undefined;
      if (rec !== undefined && typeof rec !== 'string') {
        lineNo++;
        const event = decode(rec);
        if (event instanceof Error) {
          const fault = undecodable(event);
          if (stopOnMalformed) throw new RecordingFormatError(path, lineNo, fault.reason);
          warn(skippedLine(path, lineNo, fault));
        } else if (event !== null) {
          checkJump(rec.recvTs);
          yield Array.isArray(event) ? [...(event as readonly E[])] : [event as E];
        }
      } else if (headerSeen) {
        warn(
          recordingWarning(
            path,
            lineNo + 1,
            'truncated-line',
            'skipped a truncated last line (no newline; the writer stopped mid-line)',
            'no newline: the writer stopped mid-line',
          ),
        );
      }
    }
    if (!headerSeen) {
      throw new RecordingFormatError(
        path,
        1,
        damaged ? 'has no readable header line' : 'has no complete header line',
      );
    }
  } finally {
    stream.destroy();
  }
}

/**
 * Reads a recording's raw records in batches (no decoding).
 * @param path - a `.jsonl` or `.jsonl.gz` recording
 * @param options - see {@link RecordingReadOptions}
 * @returns an async iterable of record batches
 * @throws RecordingFormatError as {@link readEventBatches}
 */
export function readRecordBatches(
  path: string,
  options: RecordingReadOptions = {},
): AsyncGenerator<RecordedMessage[], void, undefined> {
  return readEventBatches(path, keepRecord, options);
}

/**
 * Reads a recording one decoded event at a time (simpler, slower than batches: one await per event).
 * @param path - a `.jsonl` or `.jsonl.gz` recording
 * @param decode - the record decoder
 * @param options - see {@link RecordingReadOptions}
 * @returns an async iterable of events
 * @throws RecordingFormatError as {@link readEventBatches}
 */
export async function* readEvents<E>(
  path: string,
  decode: RecordDecoder<E>,
  options: RecordingReadOptions = {},
): AsyncGenerator<E, void, undefined> {
  for await (const batch of readEventBatches(path, decode, options)) yield* batch;
}

/**
 * Reads a recording one raw record at a time.
 * @param path - a `.jsonl` or `.jsonl.gz` recording
 * @param options - see {@link RecordingReadOptions}
 * @returns an async iterable of records
 * @throws RecordingFormatError as {@link readEventBatches}
 */
export function readRecords(
  path: string,
  options: RecordingReadOptions = {},
): AsyncGenerator<RecordedMessage, void, undefined> {
  return readEvents(path, keepRecord, options);
}

/**
 * Reads only the header line of a recording.
 * @param path - a `.jsonl` or `.jsonl.gz` recording
 * @returns the header
 * @throws RecordingFormatError when the file has no valid header line
 */
export async function readSessionHeader(path: string): Promise<SessionHeader> {
  let found: SessionHeader | undefined;
  const batches = readRecordBatches(path, {
    onHeader: (header) => {
      found = header;
    },
    onMalformed: 'skip',
    onWarning: () => {},
    chunkBytes: 1 << 16,
  });
  while (found === undefined) {
    const next = await batches.next();
    if (next.done) break;
  }
  await batches.return();
  if (found === undefined) throw new RecordingFormatError(path, 1, 'has no complete header line');
  return found;
}
