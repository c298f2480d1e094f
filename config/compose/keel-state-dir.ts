import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/** The environment variable that moves Keel's per-user state directory (tests, containers). */
export const KEEL_STATE_DIR_VAR = 'KEEL_STATE_DIR';

/**
 * Keel's per-user state directory: what belongs to an account rather than to one run (the kill
 * switch's state), found there by every config this user runs on this machine. `KEEL_STATE_DIR`
 * when set (a relative one from the working directory), else `$XDG_STATE_HOME/keel` (the XDG base
 * directory for state; a relative value is ignored, as the spec says), else `~/.local/state/keel`.
 * An empty variable counts as unset.
 * @param env - where the variables are read
 * @returns the directory's absolute path (it may not exist yet)
 */
export function keelStateDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const own = env[KEEL_STATE_DIR_VAR];
  if (own !== undefined && own !== '') return resolve(own);
  const xdg = env.XDG_STATE_HOME;
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, 'keel');
  return join(homedir(), '.local', 'state', 'keel');
}
