import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** A file as it was when a run took note of it: its path, device and inode. */
export interface NotedFile {
  readonly path: string;
  readonly dev: number;
  readonly ino: number;
}

/**
 * Notes a file, so it can be found again once renamed within its directory.
 * @param path - an existing file
 * @returns its path, device and inode
 */
export function noteFile(path: string): NotedFile {
  const { dev, ino } = statSync(path);
  return { path, dev, ino };
}

/**
 * Where a noted file is now: at its path when that still names it, else the name in the same
 * directory it was renamed to (a paper or live session's recorder moves an earlier recording at
 * its `recording.path` aside under a dated name, and the warm-up may read that recording).
 * @param noted - the file as noted
 * @returns its path now; its old path when it is nowhere in the directory (reading then says why)
 */
export function whereNow(noted: NotedFile): string {
  const same = (path: string): boolean => {
    try {
      const stats = statSync(path);
      return stats.dev === noted.dev && stats.ino === noted.ino;
    } catch {
      return false;
    }
  };
  if (same(noted.path)) return noted.path;
  const dir = dirname(noted.path);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return noted.path;
  }
  return names.map((name) => join(dir, name)).find(same) ?? noted.path;
}
