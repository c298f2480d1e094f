import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { gunzipSync } from 'node:zlib';
import { type GzipDamage, gzipMemberChunks } from './gzip-members.ts';
import { isGzipPath, openChunks } from './recording-reader.ts';
import { isRecvTs } from './recv-ts.ts';

/** How much of a recording's end is read to find its last record. */
const TAIL_BYTES = 1 << 20;
/** The end of a gzip file whose members are walked first when its last member is torn (then 4 and 16 times it). */
const WALK_FIRST_BYTES = 1 << 16;
/** Bytes read at a time when a recording is read through to find its last record. */
const READ_THROUGH_BYTES = 1 << 20;

/** How far {@link readLastRecvTs} needs to look. */
export interface LastRecvTsOptions {
  /**
   * A time past which the answer only matters as being at or past it (a run's window end): a
   * read through the file may stop at the first piece of text it reads (a megabyte of a plain
   * file, up to 16 MB of a gzip member's) holding a record received at or after it, and give
   * that piece's last record's time. Capped at `until`, the answer is then the same as without it
   * (a recording is in receive-time order).
   */
  readonly until?: number;
}

/**
 * The receive time of a recording's last record. Read from the file's last megabyte when that
 * holds it, so a long recording costs no full read: a `.gz` recording is found through its last
 * gzip members (Keel's writer flushes whole lines as one member, every 256 k characters by
 * default); when its last member is torn (a crash while writing), the tail's members are
 * inflated one by one from the first that inflates whole, as the recording reader reads them.
 * Otherwise (a file gzipped whole by another tool, larger than that megabyte; a last line longer
 * than it) the file is read through once, streaming, a gzip file member by member as the
 * recording reader reads it (its damaged members skipped), up to `options.until` when given.
 * Deterministic: the same file gives the same answer.
 * @param path - a `.jsonl` or `.jsonl.gz` recording
 * @param options - how far the answer matters
 * @returns the last record's recvTs (or, with `until`, maybe an earlier one at or past `until`),
 *   or undefined when the file holds no record (a header-only recording)
 * @throws Error when the file cannot be read
 */
export async function readLastRecvTs(
  path: string,
  options: LastRecvTsOptions = {},
): Promise<number | undefined> {
  const file = await open(path, 'r');
  let tail: Buffer;
  let size: number;
  try {
    size = (await file.stat()).size;
    const length = Math.min(size, TAIL_BYTES);
    tail = Buffer.alloc(length);
    await file.read(tail, 0, length, size - length);
  } finally {
    await file.close();
  }
  if (!isGzipPath(path)) {
    const found = lastRecvTsIn(tail.toString('utf8'));
    // A plain file the tail held whole has no record beyond it.
    if (found !== undefined || size <= TAIL_BYTES) return found;
    return lastRecvTsOf(openChunks(path, READ_THROUGH_BYTES), options.until, false);
  }
  const found = lastRecvTsInGzipTail(tail);
  if (found !== undefined) return found;
  // A torn last member: the members of a growing end of the file, one by one from the first that
  // inflates whole, give the last whole one's last record.
  for (let stretch = WALK_FIRST_BYTES; stretch <= TAIL_BYTES; stretch *= 4) {
    const from = Math.max(0, size - stretch);
    const walked = await lastRecvTsOf(gzipMemberChunks(path, READ_THROUGH_BYTES, from), undefined, from > 0);
    // From the file's start, the walk was the read through.
    if (walked !== undefined || from === 0) return walked;
  }
  return lastRecvTsOf(openChunks(path, READ_THROUGH_BYTES), options.until, false);
}

/**
 * The last record's recvTs in the last gzip members of a file's tail, when one inflates to the
 * end; undefined once one stops short at the end (a torn last member: every earlier start would
 * too).
 */
function lastRecvTsInGzipTail(tail: Buffer): number | undefined {
  // Try each gzip member start from the end: the first that inflates to the end holds the last lines.
  for (let i = tail.length - 18; i >= 0; i--) {
    if (tail[i] !== 0x1f || tail[i + 1] !== 0x8b || tail[i + 2] !== 0x08) continue;
    let text: string;
    try {
      text = gunzipSync(tail.subarray(i)).toString('utf8');
    } catch (error) {
      if ((error as { code?: unknown }).code === 'Z_BUF_ERROR') return undefined;
      continue; // those bytes only looked like a member header
    }
    const found = lastRecvTsIn(text);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The last record's recvTs in a recording's chunks, read once; text lost to gzip damage counts
 * for nothing. Stops at the first chunk whose last record is at or past `until`.
 * @param chunks - the chunks, from the file's start or (`midFile`) from some byte of it
 * @param until - where reading may stop
 * @param midFile - the text before the first line end may continue a line begun earlier: it is
 *   no record (so any record found is one a read from the file's start finds too)
 */
async function lastRecvTsOf(
  chunks: AsyncIterable<Buffer | GzipDamage>,
  until: number | undefined,
  midFile: boolean,
): Promise<number | undefined> {
  let decoder = new StringDecoder('utf8');
  let carry = '';
  let dropping = midFile;
  let last: number | undefined;
  for await (const chunk of chunks) {
    if (!Buffer.isBuffer(chunk)) {
      // Damaged bytes: the line cut by them is no record.
      decoder = new StringDecoder('utf8');
      carry = '';
      continue;
    }
    let text = carry + decoder.write(chunk);
    if (dropping) {
      const lineEnd = text.indexOf('\n');
      carry = '';
      if (lineEnd === -1) continue;
      text = text.slice(lineEnd + 1);
      dropping = false;
    }
    const end = text.lastIndexOf('\n');
    if (end === -1) {
      carry = text;
      continue;
    }
    last = lastRecvTsIn(text, end) ?? last;
    if (until !== undefined && last !== undefined && last >= until) return last;
    carry = text.slice(end + 1);
  }
  return (dropping ? undefined : lastRecvTsIn(carry + decoder.end())) ?? last;
}

/**
 * The recvTs of the last complete record line in some text of a recording, looked for from
 * `end` backwards.
 */
function lastRecvTsIn(text: string, end: number = text.length): number | undefined {
  let to = end;
  for (;;) {
    const from = to === 0 ? 0 : text.lastIndexOf('\n', to - 1) + 1;
    const line = text.slice(from, to).trim();
    if (line.startsWith('{')) {
      try {
        const recvTs = (JSON.parse(line) as { recvTs?: unknown }).recvTs;
        if (isRecvTs(recvTs)) return recvTs;
      } catch {
        // a torn last line: the one before it is the last record
      }
    }
    if (from === 0) return undefined;
    to = from - 1;
  }
}
