import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { eventCacheKeyPath } from '../../../backtest/runner/event-cache-key.ts';
import { keelInProcess } from '../../kit/keel-in-process.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const tempDir = tempDirsRemovedAfterEach('keel-sec-cache-');
const SESSION = 'backtest/sessions/example-synthetic.jsonl.gz';
const EXAMPLE = 'config/examples/sma-cross-backtest.yaml';

let savedCacheDir: string | undefined;
beforeEach(() => {
  savedCacheDir = process.env.KEEL_CACHE_DIR;
  process.env.KEEL_CACHE_DIR = tempDir();
});
afterEach(() => {
  if (savedCacheDir === undefined) delete process.env.KEEL_CACHE_DIR;
  else process.env.KEEL_CACHE_DIR = savedCacheDir;
});

async function backtest(dir: string, name: string, recording: string, ...extra: string[]) {
  const json = join(dir, `${name}.json`);
  // A rebuilt cache is a run warning (printed with the others); the reader's notices go to stderr.
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
    ...extra,
    '--set',
    `report.json=${json}`,
    '--set',
    `report.html=${join(dir, `${name}.html`)}`,
  ]).finally(() => spy.mockRestore());
  expect(out.code, out.stderr).toBe(0);
  return {
    fills: JSON.parse(readFileSync(json, 'utf8')).fills.length as number,
    stderr: `${out.stderr}${notices}`,
    warnings: out.stdout.split('\n').filter((line) => line.includes('events.json')),
  };
}

/** Puts b's cache next to a as a's, its meta claiming a's size and SHA-256, as a shipped folder would. */
function shipCache(from: string, to: string, mac?: string): void {
  copyFileSync(`${from}.events.bin`, `${to}.events.bin`);
  const meta = JSON.parse(readFileSync(`${from}.events.json`, 'utf8'));
  const bytes = readFileSync(to);
  meta.source = {
    ...meta.source,
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
  if (mac !== undefined) meta.mac = mac;
  writeFileSync(`${to}.events.json`, JSON.stringify(meta));
}

describe('an event cache that came with a downloaded recording (a zip of the folder)', () => {
  it('is not trusted for events the recording does not hold: rebuilt with a notice, then reused', async () => {
    const dir = tempDir();
    const a = join(dir, 'a.jsonl.gz');
    copyFileSync(SESSION, a);
    // Another recording (the first 20 000 lines), whose cache is shipped as a's.
    const b = join(dir, 'b.jsonl.gz');
    const text = gunzipSync(readFileSync(SESSION)).toString('utf8');
    writeFileSync(b, gzipSync(`${text.split('\n').slice(0, 20_000).join('\n')}\n`));
    const truth = await backtest(dir, 'truth', a, '--set', 'backtest.eventCache=false');
    await backtest(dir, 'b', b);
    // The other user's meta keeps its (wrong-key) signature: only this user's key signs.
    shipCache(b, a, 'ab'.repeat(32));
    const shipped = await backtest(dir, 'shipped', a);
    expect(shipped.fills).toBe(truth.fills);
    expect(shipped.warnings.join('\n')).toMatch(
      /a\.jsonl\.gz\.events\.json was not signed with the cache key in use \(.*event-cache\.key\): written by another user or machine, under another cache folder/,
    );
    // Rebuilt and signed with this user's key: the next run uses it, silently, with the same fills.
    const again = await backtest(dir, 'again', a);
    expect({ fills: again.fills, stderr: again.stderr, warnings: again.warnings }).toEqual({
      fills: truth.fills,
      stderr: '',
      warnings: [],
    });
    expect(JSON.parse(readFileSync(`${a}.events.json`, 'utf8')).mac).toMatch(/^[0-9a-f]{64}$/);
  }, 120_000);

  it('keeps the key in a file only the user can read', async () => {
    const dir = tempDir();
    const a = join(dir, 'a.jsonl.gz');
    copyFileSync(SESSION, a);
    await backtest(dir, 'a', a);
    expect(statSync(eventCacheKeyPath()).mode & 0o777).toBe(0o600);
  }, 120_000);
});
