import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

/**
 * Counts the records of a recording by its line breaks (minus the header line), without
 * parsing JSON, so a progress bar can show a total and an ETA.
 * @param path - a `.jsonl` or `.jsonl.gz` recording
 * @returns the number of record lines
 */
export async function countRecords(path: string): Promise<number> {
  const file = createReadStream(path);
  const stream: Readable = path.endsWith('.gz') ? file.pipe(createGunzip()) : file;
  let lines = 0;
  let last = 10;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let at = chunk.indexOf(10);
    while (at !== -1) {
      lines++;
      at = chunk.indexOf(10, at + 1);
    }
    if (chunk.length > 0) last = chunk[chunk.length - 1] as number;
  }
  if (last !== 10) lines++;
  return Math.max(0, lines - 1);
}
