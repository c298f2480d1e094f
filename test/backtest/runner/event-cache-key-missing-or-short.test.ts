import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keelInProcess } from '../../kit/keel-in-process.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

// This user's own event cache is not called "not written by this user on this machine" and rebuilt
// on every run when the key file cannot be made (read-only/absent HOME in a container): no cache is
// kept, and that is said once. A key file left empty (an older run killed between creating and
// filling it, a full disk) is made again.
const tempDir = tempDirsRemovedAfterEach('keel-cache-key-');
const SESSION = 'backtest/sessions/example-synthetic.jsonl.gz';
const EXAMPLE = 'config/examples/sma-cross-backtest.yaml';

let saved: string | undefined;
beforeEach(() => {
  saved = process.env.KEEL_CACHE_DIR;
});
afterEach(() => {
  if (saved === undefined) delete process.env.KEEL_CACHE_DIR;
  else process.env.KEEL_CACHE_DIR = saved;
});

async function backtest(dir: string, name: string, recording: string) {
  const json = join(dir, `${name}.json`);
  let notices = '';
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    notices += String(chunk);
    return true;
  });
  const out = await keelInProcess([
    'backtest',
    EXAMPLE,
    '--no-progress',
    '--recording',
    recording,
    '--set',
    `report.json=${json}`,
    '--set',
    `report.html=${join(dir, `${name}.html`)}`,
  ]).finally(() => spy.mockRestore());
  expect(out.code, out.stderr).toBe(0);
  return `${out.stdout}${out.stderr}${notices}`;
}

describe("this user's own event cache, second run on the same machine", () => {
  it('keeps no cache, and says so, when the key directory cannot be created (HOME read-only / not a dir)', async () => {
    const dir = tempDir();
    const blocker = join(dir, 'not-a-dir');
    writeFileSync(blocker, 'x'); // mkdir under a regular file fails, as under a read-only HOME
    process.env.KEEL_CACHE_DIR = join(blocker, 'keel');
    const a = join(dir, 'a.jsonl.gz');
    copyFileSync(SESSION, a);
    const first = await backtest(dir, 'first', a);
    expect(first).toContain(
      `cannot create the event-cache key at ${join(blocker, 'keel', 'event-cache.key')}`,
    );
    expect(first).toMatch(/caches are not kept/);
    expect(existsSync(`${a}.events.json`)).toBe(false);
    const second = await backtest(dir, 'second', a);
    expect(second).not.toMatch(/was not signed with the cache key in use|caches are not kept/);
  }, 120_000);

  it('is reused when the key file was left empty by a killed run (the key is made again)', async () => {
    const dir = tempDir();
    const cacheDir = join(dir, 'keys');
    process.env.KEEL_CACHE_DIR = cacheDir;
    mkdirSync(cacheDir, { mode: 0o700 });
    writeFileSync(join(cacheDir, 'event-cache.key'), '', { mode: 0o600 });
    const a = join(dir, 'a.jsonl.gz');
    copyFileSync(SESSION, a);
    await backtest(dir, 'first', a);
    const second = await backtest(dir, 'second', a);
    expect(readFileSync(join(cacheDir, 'event-cache.key'), 'utf8')).toMatch(/^[0-9a-f]{64}$/);
    expect(existsSync(`${a}.events.json`)).toBe(true);
    expect(second).not.toMatch(/was not signed with the cache key in use/);
  }, 120_000);
});
