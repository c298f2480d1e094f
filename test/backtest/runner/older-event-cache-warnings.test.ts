import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importOhlcvCsv } from '../../../backtest/csv/index.ts';
import { signEventCacheMeta } from '../../../backtest/runner/event-cache-meta.ts';
import { keelInProcess } from '../../kit/keel-in-process.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

// An event cache kept by the Keel of 3f86667 (main before merge d97938f, which scaled the recvTs
// jump warning to the recording's spacing): cache format 5 and decoder id session-decoder-v2, as
// Keel kept until the format went to 6. Its meta holds the time-jump that Keel warned of on daily
// bars across a halted month, which this Keel no longer warns of: reused, it would warn of it.
const tempDir = tempDirsRemovedAfterEach('keel-stale-cache-');
const EXAMPLE = 'config/examples/sma-cross-backtest.yaml';
const DAY = 86_400_000;
const T0 = Date.UTC(2025, 0, 1);

let savedCacheDir: string | undefined;
beforeEach(() => {
  savedCacheDir = process.env.KEEL_CACHE_DIR;
  process.env.KEEL_CACHE_DIR = tempDir();
});
afterEach(() => {
  if (savedCacheDir === undefined) delete process.env.KEEL_CACHE_DIR;
  else process.env.KEEL_CACHE_DIR = savedCacheDir;
});

async function warningsOf(dir: string, recording: string, ...extra: string[]): Promise<string[]> {
  const json = join(dir, 'r.json');
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
    `report.html=${join(dir, 'r.html')}`,
  ]);
  expect(out.code, out.stderr).toBe(0);
  return JSON.parse(readFileSync(json, 'utf8')).meta.warnings as string[];
}

describe('an event cache an earlier Keel kept, whose reader warned by older rules', () => {
  it('warns as a run from the recording does (README: "a run from it warns as one from the file")', async () => {
    const dir = tempDir();
    // Daily bars, January, a halt of 39 days, then March 12 on (as /tmp/compat28-scratch/halt.csv).
    const days = [
      ...Array.from({ length: 31 }, (_, i) => i),
      ...Array.from({ length: 60 }, (_, i) => 70 + i),
    ];
    writeFileSync(
      join(dir, 'd.csv'),
      `timestamp,open,high,low,close,volume\n${days.map((d) => `${T0 + d * DAY},100,101,99,100,10`).join('\n')}\n`,
    );
    const recording = join(dir, 'd.jsonl');
    await importOhlcvCsv({ input: join(dir, 'd.csv'), output: recording, sym: 'BINANCE_PERP_BTC_USDT' });
    const fromFile = await warningsOf(dir, recording, '--set', 'backtest.eventCache=false');
    await warningsOf(dir, recording); // builds this Keel's cache
    // What the meta of the Keel of 3f86667 holds for that recording (the real file's `skipped`).
    const metaPath = `${recording}.events.json`;
    const meta = JSON.parse(readFileSync(metaPath, 'utf8'));
    meta.format = 5;
    meta.skipped = [
      {
        kind: 'time-jump',
        count: 1,
        first: {
          line: 33,
          reason:
            'recvTs jumps 39 days forward from the record before (2025-02-01T00:00:00.000Z to 2025-03-12T00:00:00.000Z)',
        },
      },
    ];
    writeFileSync(metaPath, JSON.stringify(await signEventCacheMeta(meta)));
    const fromOldCache = await warningsOf(dir, recording);
    expect(fromOldCache).toEqual(fromFile);
  });
});
