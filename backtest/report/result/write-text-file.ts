import { open } from 'node:fs/promises';

/** Characters gathered before one write to disk. */
const WRITE_CHARS = 1 << 20;

/**
 * Writes text given in pieces to a file, gathering them into writes of about 1 MiB, so a large
 * result file streams to disk without its whole text in memory.
 * @param path - the file to create or replace
 * @param chunks - the text in order (e.g. from `stableJsonChunks` or a CSV line generator)
 * @returns the path written
 * @throws Error (from fs) when the file cannot be written, or what producing a chunk throws
 */
export async function writeTextFile(path: string, chunks: Iterable<string>): Promise<string> {
  const handle = await open(path, 'w');
  try {
    let pending: string[] = [];
    let size = 0;
    for (const chunk of chunks) {
      pending.push(chunk);
      size += chunk.length;
      if (size >= WRITE_CHARS) {
        await handle.write(pending.join(''));
        pending = [];
        size = 0;
      }
    }
    if (pending.length > 0) await handle.write(pending.join(''));
  } finally {
    await handle.close();
  }
  return path;
}
