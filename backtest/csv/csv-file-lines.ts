import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { CsvLines } from './csv-lines.ts';

/** The encodings a CSV's text is decoded from. */
export type CsvEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

/** A CSV file's lines and the encoding they are decoded from. */
export interface CsvFileLines extends CsvLines {
  readonly encoding: CsvEncoding;
}

/** Bytes read at a time: an even number, so a UTF-16 code unit is never split at a chunk's start. */
const CHUNK_BYTES = 1 << 20;

/** How one encoding's lines are cut from its bytes and decoded. */
interface LineCodec {
  /** Bytes of a code unit: 1, or 2 for UTF-16. */
  readonly unit: number;
  /** The bytes of `\n` and `\r` in the encoding. */
  readonly newline: readonly number[];
  readonly carriageReturn: readonly number[];
  readonly decode: (bytes: Uint8Array) => string;
}

const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });
const CODECS: Readonly<Record<CsvEncoding, LineCodec>> = {
  'utf-8': { unit: 1, newline: [0x0a], carriageReturn: [0x0d], decode: (b) => UTF8.decode(b) },
  'windows-1252': single(new TextDecoder('windows-1252')),
  'utf-16le': { unit: 2, newline: [0x0a, 0], carriageReturn: [0x0d, 0], ...decoder('utf-16le') },
  'utf-16be': { unit: 2, newline: [0, 0x0a], carriageReturn: [0, 0x0d], ...decoder('utf-16be') },
};

function single(d: { decode(bytes: Uint8Array): string }): LineCodec {
  return { unit: 1, newline: [0x0a], carriageReturn: [0x0d], decode: (b) => d.decode(b) };
}

function decoder(encoding: 'utf-16le' | 'utf-16be'): Pick<LineCodec, 'decode'> {
  const d = new TextDecoder(encoding, { ignoreBOM: true });
  return { decode: (b) => d.decode(b) };
}

/**
 * A CSV file's lines, read a chunk at a time on each pass (forward, or from the end for a file
 * written newest first), never whole. Its text is UTF-16 when it starts with its byte order mark
 * (spreadsheet "Unicode text" exports), else UTF-8, else, when the bytes are not valid UTF-8
 * (checked in a first pass), Windows-1252 (German broker exports such as ariva's, whose `Stücke`
 * and `Eröffnung` would not read as UTF-8). A byte order mark is dropped.
 * @param path - the file
 * @param chunkBytes - bytes read at a time (even); 1 MiB unless a test says less
 * @returns the lines and the encoding they are read in
 * @throws Error (the file system's) when the file cannot be opened or read
 */
export function csvFileLines(path: string, chunkBytes = CHUNK_BYTES): CsvFileLines {
  const { encoding, start } = withFile(path, (fd, size) => encodingOf(fd, size, chunkBytes));
  const codec = CODECS[encoding];
  return {
    encoding,
    forward: () => forwardLines(path, start, codec, chunkBytes),
    backward: () => backwardLines(path, start, codec, chunkBytes),
  };
}

function withFile<T>(path: string, use: (fd: number, size: number) => T): T {
  const fd = openSync(path, 'r');
  try {
    return use(fd, fstatSync(fd).size);
  } finally {
    closeSync(fd);
  }
}

/** The encoding, and where the text starts (after a byte order mark). */
function encodingOf(fd: number, size: number, chunkBytes: number): { encoding: CsvEncoding; start: number } {
  const head = Buffer.alloc(3);
  const got = readSync(fd, head, 0, 3, 0);
  if (got >= 2 && head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', start: 2 };
  if (got >= 2 && head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', start: 2 };
  const bom = got === 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  const check = new TextDecoder('utf-8', { fatal: true });
  const buf = Buffer.allocUnsafe(chunkBytes);
  try {
    for (let pos = 0; pos < size; ) {
      const n = readSync(fd, buf, 0, Math.min(chunkBytes, size - pos), pos);
      if (n === 0) break;
      check.decode(buf.subarray(0, n), { stream: true });
      pos += n;
    }
    check.decode();
  } catch (error) {
    // Not UTF-8 (a TypeError); anything else is not an encoding's.
    if (!(error instanceof TypeError)) throw error;
    return { encoding: 'windows-1252', start: 0 };
  }
  return { encoding: 'utf-8', start: bom };
}

/** Whether `bytes` holds `pattern` at `at`. */
function holds(bytes: Uint8Array, at: number, pattern: readonly number[]): boolean {
  for (let k = 0; k < pattern.length; k++) if (bytes[at + k] !== pattern[k]) return false;
  return true;
}

/** Index of the first newline unit at or after `from` (a unit boundary), or -1. */
function nextNewline(data: Buffer, from: number, codec: LineCodec): number {
  if (codec.unit === 1) return data.indexOf(0x0a, from);
  for (let i = from; i + 1 < data.length; i += 2) if (holds(data, i, codec.newline)) return i;
  return -1;
}

/** Index of the last newline unit starting before `before` (a unit boundary), or -1. */
function previousNewline(data: Buffer, before: number, codec: LineCodec): number {
  if (codec.unit === 1) return before <= 0 ? -1 : data.lastIndexOf(0x0a, before - 1);
  for (let i = before - 2; i >= 0; i -= 2) if (holds(data, i, codec.newline)) return i;
  return -1;
}

/**
 * A line's bytes as text. A line ended by a line break drops a trailing `\r` (the `\r` of `\r\n`);
 * the last line, ended by the file's end, keeps it. The first line drops a byte order mark left
 * after the one skipped, as a text's is.
 */
function lineText(bytes: Uint8Array, codec: LineCodec, at: { first?: boolean; last?: boolean } = {}): string {
  const cr = codec.carriageReturn;
  const end =
    at.last !== true && bytes.length >= cr.length && holds(bytes, bytes.length - cr.length, cr)
      ? bytes.length - cr.length
      : bytes.length;
  const text = codec.decode(bytes.subarray(0, end));
  return at.first === true ? text.replace(/^\uFEFF/, '') : text;
}

function* forwardLines(path: string, start: number, codec: LineCodec, chunkBytes: number): Generator<string> {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const buf = Buffer.allocUnsafe(chunkBytes);
    let carry: Buffer = Buffer.alloc(0);
    let first = true;
    for (let pos = start; pos < size; ) {
      const n = readSync(fd, buf, 0, Math.min(chunkBytes, size - pos), pos);
      if (n === 0) break;
      pos += n;
      const data = carry.length === 0 ? buf.subarray(0, n) : Buffer.concat([carry, buf.subarray(0, n)]);
      let lineStart = 0;
      for (let nl = nextNewline(data, 0, codec); nl !== -1; nl = nextNewline(data, lineStart, codec)) {
        const bytes = data.subarray(lineStart, nl);
        yield lineText(bytes, codec, { first });
        first = false;
        lineStart = nl + codec.unit;
      }
      carry = Buffer.from(data.subarray(lineStart));
    }
    yield lineText(carry, codec, { first, last: true });
  } finally {
    closeSync(fd);
  }
}

function* backwardLines(
  path: string,
  start: number,
  codec: LineCodec,
  chunkBytes: number,
): Generator<string> {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const buf = Buffer.allocUnsafe(chunkBytes);
    let tail: Buffer = Buffer.alloc(0);
    let last = true;
    for (let pos = size; pos > start; ) {
      // Chunks start on a code unit's boundary, counted from the text's start.
      const from = Math.max(start, start + Math.ceil((pos - chunkBytes - start) / codec.unit) * codec.unit);
      const n = readSync(fd, buf, 0, pos - from, from);
      pos = from;
      const data = tail.length === 0 ? buf.subarray(0, n) : Buffer.concat([buf.subarray(0, n), tail]);
      let end = data.length;
      for (
        let nl = previousNewline(data, end - (end % codec.unit), codec);
        nl !== -1;
        nl = previousNewline(data, end, codec)
      ) {
        yield lineText(data.subarray(nl + codec.unit, end), codec, { last });
        last = false;
        end = nl;
      }
      tail = Buffer.from(data.subarray(0, end));
    }
    yield lineText(tail, codec, { first: true, last });
  } finally {
    closeSync(fd);
  }
}
