import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { gunzipSync } from 'node:zlib';
import { isGzipPath, openChunks } from './recording-reader.ts';

/** How much of a recording's end is read to find its last record. */
const TAIL_BYTES = 1 << 20;
/** Bytes read at a time when a recording is read through to find its last record. */
const READ_THROUGH_BYTES = 1 << 20;

/**
 * The receive time of a recording's last record. Read from the file's last megabyte when that
 * holds it, so a long recording costs no full read: a `.gz` recording is found through its last
 * gzip members (Keel's writer flushes whole lines as one member, every 256 k characters by
 * default). Otherwise (a file gzipped whole by another tool, larger than that megabyte; a last
 * line longer than it; a torn last member) the file is read through once, streaming, a gzip file
 * member by member as the recording reader reads it (its damaged members skipped).
 * Deterministic: the same file gives the same answer.
 * @param path - a `.jsonl` or `.jsonl.gz` recording
 * @returns the last record's recvTs, or undefined when the file holds no record (a header-only
 *   recording)
 * @throws Error when the file cannot be read
 */
export async function readLastRecvTs(path: string): Promise<number | undefined> {
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
  const gzip = isGzipPath(path);
  const found = gzip ? lastRecvTsInGzipTail(tail) : lastRecvTsIn(tail.toString('utf8'));
  // A plain file the tail held whole has no record beyond it.
  if (found !== undefined || (!gzip && size <= TAIL_BYTES)) return found;
  return readThrough(path);
}

/** The last record's recvTs in the last gzip members of a file's tail, when one inflates to the end. */
function lastRecvTsInGzipTail(tail: Buffer): number | undefined {
  // Try each gzip member start from the end: the first that inflates to the end holds the last lines.
  for (let i = tail.length - 18; i >= 0; i--) {
    if (tail[i] !== 0x1f || tail[i + 1] !== 0x8b || tail[i + 2] !== 0x08) continue;
    let text: string;
    try {
      text = gunzipSync(tail.subarray(i)).toString('utf8');
    } catch {
      continue; // those bytes only looked like a member header, or the member is torn
    }
    const found = lastRecvTsIn(text);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The last record's recvTs, the whole file read once; text lost to gzip damage counts for nothing. */
async function readThrough(path: string): Promise<number | undefined> {
  let decoder = new StringDecoder('utf8');
  let carry = '';
  let last: number | undefined;
  for await (const chunk of openChunks(path, READ_THROUGH_BYTES)) {
    if (!Buffer.isBuffer(chunk)) {
      // Damaged bytes: the line cut by them is no record.
      decoder = new StringDecoder('utf8');
      carry = '';
      continue;
    }
    const text = carry + decoder.write(chunk);
    const end = text.lastIndexOf('\n');
    if (end === -1) {
      carry = text;
      continue;
    }
    last = lastRecvTsIn(text, end) ?? last;
    carry = text.slice(end + 1);
  }
  return lastRecvTsIn(carry + decoder.end()) ?? last;
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
        if (typeof recvTs === 'number' && Number.isFinite(recvTs)) return recvTs;
      } catch {
        // a torn last line: the one before it is the last record
      }
    }
    if (from === 0) return undefined;
    to = from - 1;
  }
}
