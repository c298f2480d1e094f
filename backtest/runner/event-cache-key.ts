import { createHmac, randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { link, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { makePrivateDirSync } from '../files/index.ts';

/**
 * Where this user's event-cache key lives: `$KEEL_CACHE_DIR/event-cache.key` when set (tests,
 * or a user who keeps caches elsewhere), else `$XDG_CACHE_HOME/keel/event-cache.key`, else
 * `~/.cache/keel/event-cache.key`.
 * @param env - the environment
 * @returns the key file's path
 */
export function eventCacheKeyPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.KEEL_CACHE_DIR) return join(env.KEEL_CACHE_DIR, 'event-cache.key');
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'keel', 'event-cache.key');
}

/** This user's event-cache key, or why there is none. */
export type EventCacheKeyState =
  | { readonly key: Buffer; readonly problem?: undefined }
  | { readonly key?: undefined; readonly problem: string };

/** The keys read (or made) in this process, by path. */
const keys = new Map<string, Promise<EventCacheKeyState>>();

/**
 * This user's secret for signing event-cache metas: 32 random bytes, made on first use in a file
 * only the user may read (0600, in a 0700 directory). The file appears whole (written aside, then
 * linked into place): runs making it at once all take the first one's key. An empty or short key
 * file (left by an older version killed while writing it) is replaced. A key file others may read
 * or write is not used: anyone could sign with it.
 * @param path - the key file; default {@link eventCacheKeyPath}
 * @returns the key, or undefined when it cannot be read, made or trusted (no cache is then trusted)
 */
export async function eventCacheKey(path: string = eventCacheKeyPath()): Promise<Buffer | undefined> {
  return (await eventCacheKeyState(path)).key;
}

/**
 * {@link eventCacheKey}, or the reason there is none (for the one notice that caches are not kept).
 * @param path - the key file; default {@link eventCacheKeyPath}
 * @returns the key, or the problem naming the key file
 */
export function eventCacheKeyState(path: string = eventCacheKeyPath()): Promise<EventCacheKeyState> {
  let state = keys.get(path);
  if (state === undefined) {
    state = loadOrMakeKey(path);
    keys.set(path, state);
  }
  return state;
}

async function loadOrMakeKey(path: string): Promise<EventCacheKeyState> {
  const cannot = (why: string): EventCacheKeyState => ({
    problem: `cannot create the event-cache key at ${path} (${why}): caches are not kept`,
  });
  const found = await readKey(path);
  if (typeof found !== 'string') return found;
  const made = `${path}.${process.pid}-${threadId}-${randomBytes(6).toString('hex')}.tmp`;
  try {
    makePrivateDirSync(dirname(path));
    await writeFile(made, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
    // Linking never replaces: of runs making the key at once, the first one's stands.
    await link(made, path).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
      if (found === 'short') await rename(made, path);
    });
  } catch (error) {
    return cannot((error as NodeJS.ErrnoException).code ?? String(error));
  } finally {
    await unlink(made).catch(() => undefined);
  }
  const now = await readKey(path);
  return typeof now === 'string' ? cannot(`it reads back ${now}`) : now;
}

/** The key in the file, why it is not used, or whether the file is missing or short (to be made). */
async function readKey(path: string): Promise<EventCacheKeyState | 'missing' | 'short'> {
  let info: Stats;
  try {
    info = await stat(path);
  } catch {
    return 'missing';
  }
  if ((info.mode & 0o077) !== 0 || (typeof process.getuid === 'function' && info.uid !== process.getuid()))
    return {
      problem: `the event-cache key at ${path} may be read or written by other users, so it is not used and caches are not kept (make it the user's own with mode 0600, or remove it)`,
    };
  try {
    const key = Buffer.from((await readFile(path, 'utf8')).trim(), 'hex');
    return key.length >= 32 ? { key } : 'short';
  } catch (error) {
    return {
      problem: `cannot read the event-cache key at ${path} (${(error as NodeJS.ErrnoException).code}): caches are not kept`,
    };
  }
}

/**
 * The HMAC-SHA256 of a meta's text under a key, in hex.
 * @param text - the meta's JSON without its signature
 * @param key - the user's key
 * @returns the signature
 */
export function metaSignature(text: string, key: Buffer): string {
  return createHmac('sha256', key).update(text).digest('hex');
}
