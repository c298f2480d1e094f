import { open } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { isGzipPath } from './recording-reader.ts';

/** How much of a recording's end is read to find its last record. */
const TAIL_BYTES = 1 << 20;

/**
 * The receive time of a recording's last record, read from the file's last megabyte only, so a
 * long recording costs no full read. A `.gz` recording is found through its last gzip members
 * (Keel's writer flushes whole lines as one member, every 256 k characters by default).
 * Deterministic: the same file gives the same answer.
 * @param path - a `.jsonl` or `.jsonl.gz` recording
 * @returns the last record's recvTs, or undefined when the tail holds none (a single-member gzip
 *   file larger than the tail, a header-only recording)
 * @throws Error when the file cannot be read
 */
export async function readLastRecvTs(path: string): Promise<number | undefined> {
  const file = await open(path, 'r');
  let tail: Buffer;
  try {
    const { size } = await file.stat();
    const length = Math.min(size, TAIL_BYTES);
    tail = Buffer.alloc(length);
    await file.read(tail, 0, length, size - length);
  } finally {
    await file.close();
  }
  if (!isGzipPath(path)) return lastRecvTsIn(tail.toString('utf8'));
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

/** The recvTs of the last complete record line in some text of a recording. */
function lastRecvTsIn(text: string): number | undefined {
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]?.trim();
    if (line === undefined || !line.startsWith('{')) continue;
    try {
      const recvTs = (JSON.parse(line) as { recvTs?: unknown }).recvTs;
      if (typeof recvTs === 'number' && Number.isFinite(recvTs)) return recvTs;
    } catch {
      // a torn last line: the one before it is the last record
    }
  }
  return undefined;
}
