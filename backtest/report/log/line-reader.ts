import { closeSync, openSync, readSync } from 'node:fs';

/** Bytes read from disk at a time. */
const CHUNK_BYTES = 1 << 16;

/**
 * The lines of a text file, read synchronously in 64 KiB chunks, so only one chunk and the
 * line being assembled are in memory. The file closes when the iteration ends or is left early.
 * An empty last line (the file ends with a line break) is not yielded.
 * @param path - a UTF-8 text file
 * @returns the lines without their line breaks
 * @throws Error (from fs) when the file cannot be opened or read
 */
export function* readLines(path: string): Generator<string> {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    const decoder = new TextDecoder('utf-8');
    let carry = '';
    for (;;) {
      const read = readSync(fd, buffer, 0, CHUNK_BYTES, null);
      const text = carry + decoder.decode(buffer.subarray(0, read), { stream: read > 0 });
      if (read === 0) {
        if (text.length > 0) yield text;
        return;
      }
      let start = 0;
      for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
        yield text.slice(start, end);
        start = end + 1;
      }
      carry = text.slice(start);
    }
  } finally {
    closeSync(fd);
  }
}
