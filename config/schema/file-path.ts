import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';

/**
 * A path with a leading `~` (alone or before `/`) read as the user's home folder, as a shell
 * reads it: YAML does not, so `~/data/btc.jsonl.gz` named `<config folder>/~/data/…` and an
 * output such as `~/out/result.json` made a folder called `~` in the working directory.
 * @param path - a path as written
 * @returns the path with its `~` replaced; any other path as it is
 */
export function expandHome(path: string): string {
  return path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
}

/** A non-empty file path of a config, `~` read as the home folder ({@link expandHome}). */
export const filePathSchema = z.string().min(1).overwrite(expandHome);
