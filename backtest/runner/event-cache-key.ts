import { createHmac, randomBytes } from 'node:crypto';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

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

/** The keys read (or made) in this process, by path. */
const keys = new Map<string, Promise<Buffer | undefined>>();

/**
 * This user's secret for signing event-cache metas: 32 random bytes, made on first use in a file
 * only the user may read (0600, in a 0700 directory). A key file others may read or write is not
 * used (undefined): anyone could sign with it.
 * @param path - the key file; default {@link eventCacheKeyPath}
 * @returns the key, or undefined when it cannot be read, made or trusted (no cache is then trusted)
 */
export function eventCacheKey(path: string = eventCacheKeyPath()): Promise<Buffer | undefined> {
  let key = keys.get(path);
  if (key === undefined) {
    key = loadOrMakeKey(path);
    keys.set(path, key);
  }
  return key;
}

async function loadOrMakeKey(path: string): Promise<Buffer | undefined> {
  try {
    await mkdir(join(path, '..'), { recursive: true, mode: 0o700 });
    await writeFile(path, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
  } catch {
    // It exists already (another run made it), or cannot be made: read what is there.
  }
  try {
    const info = await stat(path);
    if ((info.mode & 0o077) !== 0) return undefined;
    if (typeof process.getuid === 'function' && info.uid !== process.getuid()) return undefined;
    const key = Buffer.from((await readFile(path, 'utf8')).trim(), 'hex');
    return key.length >= 32 ? key : undefined;
  } catch {
    return undefined;
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
