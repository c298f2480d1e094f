import { type FileHandle, open } from 'node:fs/promises';
import { crc32, createInflateRaw } from 'node:zlib';

/**
 * Compressed bytes of a gzip file that could not be read: `[from, to)` in the file. A `tail` runs
 * to the end of the file: nothing after it was read.
 */
export interface GzipDamage {
  readonly from: number;
  readonly to: number;
  /** What is wrong, as zlib or the member check said it. */
  readonly reason: string;
  readonly tail: boolean;
}

/**
 * Output of one member held back until its CRC-32 and length are checked, so a damaged member
 * gives none of its (possibly garbled) text. A member that inflates to more than this (a file
 * gzipped whole by another tool) is passed on unchecked beyond it, so memory stays bounded.
 */
const HOLD_BYTES = 1 << 24;
/** Bytes of a member header's name or comment read at a time while looking for its end. */
const HEADER_WINDOW = 1 << 12;
/** The longest name or comment a member header may have before it is taken for damage. */
const HEADER_TEXT_MAX = 1 << 20;
const FHCRC = 2;
const FEXTRA = 4;
const FNAME = 8;
const FCOMMENT = 16;
const FRESERVED = 0xe0;

/** The outcome of inflating a member that starts at a given byte. */
type MemberOutcome =
  | { readonly ok: true; readonly end: number; readonly held: Buffer[] }
  | { readonly ok: false; readonly reason: string; readonly tail: boolean; readonly held: Buffer[] };

/**
 * Inflates a gzip file member by member, a damaged member not the end of it: the text of every
 * member that inflates whole and matches its CRC-32 and length is given, in file order; the bytes
 * of a damaged one are reported as {@link GzipDamage} (with the bytes up to the next member header
 * that inflates) and skipped. A crash while writing leaves a member cut short at the end: its text
 * up to the cut is given (inflated data before a cut is sound), then the damage.
 * @param path - the gzip file
 * @param chunkBytes - compressed bytes read at a time, and the size of inflated pieces
 * @param from - where in the file to start (default its start); bytes there that start no member
 *   are damage up to the next member that inflates, as anywhere else
 * @returns pieces of inflated text and damage reports, in file order
 */
export async function* gzipMemberChunks(
  path: string,
  chunkBytes: number,
  from = 0,
): AsyncGenerator<Buffer | GzipDamage, void, undefined> {
  const file = await open(path, 'r');
  try {
    const size = (await file.stat()).size;
    let pos = from;
    let damagedFrom: number | undefined;
    let damagedReason = '';
    while (pos < size) {
      const outcome = yield* inflateMember(file, pos, size, chunkBytes);
      if (outcome.ok) {
        if (damagedFrom !== undefined) {
          yield { from: damagedFrom, to: pos, reason: damagedReason, tail: false };
          damagedFrom = undefined;
        }
        yield* outcome.held;
        pos = outcome.end;
        continue;
      }
      // Zero bytes after the last member pad the file (some writers and tapes do): not damage.
      if (!outcome.ok && damagedFrom === undefined && (await onlyZeros(file, pos, size))) return;
      if (outcome.tail && damagedFrom === undefined) {
        yield* outcome.held;
        yield { from: pos, to: size, reason: outcome.reason, tail: true };
        return;
      }
      if (damagedFrom === undefined) {
        damagedFrom = pos;
        damagedReason = outcome.reason;
      }
      pos = await nextMemberStart(file, pos + 1, size, chunkBytes);
    }
    if (damagedFrom !== undefined) yield { from: damagedFrom, to: size, reason: damagedReason, tail: true };
  } finally {
    await file.close();
  }
}

/** Where the next byte triple that can start a member (1f 8b 08, no reserved flag) is, or `size`. */
async function nextMemberStart(
  file: FileHandle,
  from: number,
  size: number,
  chunkBytes: number,
): Promise<number> {
  const buffer = Buffer.allocUnsafe(Math.max(chunkBytes, 64));
  let pos = from;
  while (pos < size) {
    const { bytesRead } = await file.read(buffer, 0, Math.min(buffer.length, size - pos), pos);
    if (bytesRead === 0) break;
    // The last 3 bytes of a window are looked at again at the start of the next.
    const scan = pos + bytesRead < size ? bytesRead - 3 : bytesRead;
    for (let i = 0; i < scan; i++) {
      if (buffer[i] !== 0x1f) continue;
      if (i + 3 >= bytesRead) return pos + i;
      if (buffer[i + 1] === 0x8b && buffer[i + 2] === 0x08 && ((buffer[i + 3] as number) & FRESERVED) === 0)
        return pos + i;
    }
    pos += Math.max(1, scan);
  }
  return size;
}

/** The length of the member header at `pos`, or why there is none. */
async function headerLength(file: FileHandle, pos: number, size: number): Promise<number | string> {
  const head = Buffer.alloc(Math.min(12, size - pos));
  await file.read(head, 0, head.length, pos);
  if (head.length < 10) return 'a member header cut short';
  if (head[0] !== 0x1f || head[1] !== 0x8b || head[2] !== 0x08) return 'no gzip member header';
  const flags = head[3] as number;
  if ((flags & FRESERVED) !== 0) return 'a member header with reserved flags';
  let at = 10;
  if ((flags & FEXTRA) !== 0) {
    if (head.length < 12) return 'a member header cut short';
    // Up to 65,535 bytes (dictzip keeps its chunk table there).
    at += 2 + head.readUInt16LE(10);
  }
  for (const flag of [FNAME, FCOMMENT]) {
    if ((flags & flag) === 0) continue;
    const nul = await zeroByteFrom(file, pos + at, size);
    if (nul === undefined) return 'a member header whose name or comment does not end';
    at = nul - pos + 1;
  }
  if ((flags & FHCRC) !== 0) at += 2;
  return pos + at <= size ? at : 'a member header cut short';
}

/** Where the first zero byte at or after `from` is (within {@link HEADER_TEXT_MAX}), if any. */
async function zeroByteFrom(file: FileHandle, from: number, size: number): Promise<number | undefined> {
  const window = Buffer.allocUnsafe(HEADER_WINDOW);
  for (let at = from; at < size && at - from < HEADER_TEXT_MAX; ) {
    const { bytesRead } = await file.read(window, 0, Math.min(window.length, size - at), at);
    if (bytesRead === 0) return undefined;
    const nul = window.subarray(0, bytesRead).indexOf(0);
    if (nul !== -1) return at + nul;
    at += bytesRead;
  }
  return undefined;
}

/** Whether every byte from `from` to the end of the file is zero. */
async function onlyZeros(file: FileHandle, from: number, size: number): Promise<boolean> {
  const window = Buffer.allocUnsafe(HEADER_WINDOW);
  for (let at = from; at < size; ) {
    const { bytesRead } = await file.read(window, 0, Math.min(window.length, size - at), at);
    if (bytesRead === 0) return true;
    for (let i = 0; i < bytesRead; i++) if (window[i] !== 0) return false;
    at += bytesRead;
  }
  return true;
}

/**
 * Inflates the member at `pos`: gives the text beyond {@link HOLD_BYTES} as it comes, returns the
 * rest held, with where the member ends, or why it is damaged.
 */
async function* inflateMember(
  file: FileHandle,
  pos: number,
  size: number,
  chunkBytes: number,
): AsyncGenerator<Buffer, MemberOutcome, undefined> {
  const header = await headerLength(file, pos, size);
  if (typeof header === 'string') return { ok: false, reason: header, tail: false, held: [] };
  const inflate = createInflateRaw({ chunkSize: Math.max(64, Math.min(chunkBytes, 1 << 18)) });
  let held: Buffer[] = [];
  let heldBytes = 0;
  let crc = 0;
  let length = 0;
  let failure: Error | undefined;
  inflate.on('data', (piece: Buffer) => {
    held.push(piece);
    heldBytes += piece.length;
    crc = crc32(piece, crc);
    length += piece.length;
  });
  const settled = new Promise<void>((resolve) => {
    inflate.once('end', resolve);
    inflate.once('error', (error) => {
      failure = error;
      resolve();
    });
  });
  const start = pos + header;
  let fed = 0;
  try {
    const input = Buffer.allocUnsafe(chunkBytes);
    while (start + fed < size && failure === undefined && inflate.bytesWritten === fed) {
      const { bytesRead } = await file.read(input, 0, Math.min(chunkBytes, size - start - fed), start + fed);
      fed += bytesRead;
      // A copy: zlib may still hold the piece while the next read fills the buffer.
      const piece = Buffer.from(input.subarray(0, bytesRead));
      await Promise.race([new Promise<void>((resolve) => inflate.write(piece, () => resolve())), settled]);
      if (heldBytes > HOLD_BYTES) {
        yield* held;
        held = [];
        heldBytes = 0;
      }
    }
    if (failure === undefined) inflate.end();
    await settled;
    if (failure !== undefined) {
      // Data that stops short at the end of the file is a member cut by a crash; any other error is damage.
      const cut = start + fed >= size && (failure as { code?: unknown }).code === 'Z_BUF_ERROR';
      return { ok: false, reason: failure.message, tail: cut, held };
    }
    const trailer = start + inflate.bytesWritten;
    if (size - trailer < 8) return { ok: false, reason: 'a member without its trailer', tail: true, held };
    const check = Buffer.alloc(8);
    await file.read(check, 0, 8, trailer);
    if (check.readUInt32LE(0) !== crc >>> 0)
      return { ok: false, reason: 'a member whose CRC-32 does not match', tail: false, held };
    if (check.readUInt32LE(4) !== length % 2 ** 32)
      return { ok: false, reason: 'a member whose length does not match', tail: false, held };
    return { ok: true, end: trailer + 8, held };
  } finally {
    inflate.destroy();
  }
}
