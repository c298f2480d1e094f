import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Whether this system applies POSIX file modes (Keel leaves them alone on Windows). */
export const POSIX_MODES = process.platform !== 'win32';

/**
 * A file's or directory's permission bits, in octal.
 * @param path - the file
 * @returns e.g. `600`
 */
export function modeOf(path: string): string {
  return (statSync(path).mode & 0o777).toString(8);
}

/**
 * The permission bits of everything under a directory, by path relative to it.
 * @param dir - the directory
 * @returns e.g. `{ 'a.json': '600', sub: '700' }`
 */
export function modesUnder(dir: string): Record<string, string> {
  const modes: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' }))
    modes[entry] = modeOf(join(dir, entry));
  return modes;
}
