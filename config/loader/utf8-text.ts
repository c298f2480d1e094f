/** A file's bytes read as UTF-8 text, or where they stop being UTF-8. */
export type Utf8Text =
  | { readonly ok: true; readonly text: string }
  | {
      readonly ok: false;
      /** 1-based line of the first byte that is not UTF-8. */
      readonly line: number;
      /** 1-based column (in characters) of that byte on its line. */
      readonly col: number;
      /** The byte, e.g. `0xff`. */
      readonly byte: string;
    };

/**
 * Decodes bytes as UTF-8, refusing rather than replacing what is not UTF-8: a config saved as
 * Latin-1 or UTF-16 otherwise reads as replacement characters and fails later with problems
 * about the keys it garbled. A byte order mark is kept, as `readFileSync(file, 'utf8')` keeps it.
 * @param bytes - the file's content
 * @returns the text, or the line and column of the first byte that is not UTF-8
 */
export function decodeUtf8(bytes: Uint8Array): Utf8Text {
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes) };
  } catch {
    const at = firstInvalidByte(bytes);
    const before = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(0, at));
    const lineStart = before.lastIndexOf('\n') + 1;
    return {
      ok: false,
      line: before.split('\n').length,
      col: [...before.slice(lineStart)].length + 1,
      byte: `0x${(bytes[at] ?? 0).toString(16).padStart(2, '0')}`,
    };
  }
}

/**
 * The offset of the first byte a strict decoder refuses, taken back to the start of the character
 * it was part of (`0xe2 0x41`: the `0xe2` whose character the `A` broke). A prefix that does not
 * decode as the start of a text stays so when longer, so the shortest one is found by halving.
 */
function firstInvalidByte(bytes: Uint8Array): number {
  if (decodesAsStart(bytes)) return characterStart(bytes, bytes.length - 1);
  let good = 0;
  let bad = bytes.length;
  while (bad - good > 1) {
    const mid = (good + bad) >>> 1;
    if (decodesAsStart(bytes.subarray(0, mid))) good = mid;
    else bad = mid;
  }
  return characterStart(bytes, bad - 1);
}

/** The lead byte of a multi-byte character still open at `at`, else `at` itself. */
function characterStart(bytes: Uint8Array, at: number): number {
  for (let back = 1; back <= 3 && at - back >= 0; back++) {
    const byte = bytes[at - back] ?? 0;
    if (byte >= 0xc0) return back < sequenceLength(byte) ? at - back : at;
    if (byte < 0x80) return at;
  }
  return at;
}

function sequenceLength(lead: number): number {
  return lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
}

function decodesAsStart(prefix: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(prefix, { stream: true });
    return true;
  } catch {
    return false;
  }
}
