import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLastRecvTs } from '../../../backtest/recording/index.ts';
import { runBacktest } from '../../../backtest/runner/index.ts';
import {
  SYNTHETIC_BTC_PERP,
  SYNTHETIC_MARKETS,
  writeSyntheticSession,
} from '../../../backtest/synthetic/index.ts';
import { wideQuotingRunOptions } from '../../kit/wide-quoting-run-options.ts';

// The same 30-hour recording, once as plain JSON lines and once gzipped by the ordinary `gzip`
// tool (one gzip member, > 1 MiB compressed), backtested with the same options: the run's span,
// and with it the equity sampling step (15 s), the per-sample grid, Sharpe, Sortino and max
// drawdown, must not depend on how the file was compressed (a tail read alone finds no end in a
// single-member gzip).
describe('a recording gzipped by another tool backtests like the same recording uncompressed', () => {
  let dir = '';
  let plain = '';
  let gz = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'keel-scale-gz-'));
    plain = join(dir, 'btc30h.jsonl');
    gz = join(dir, 'btc30h.jsonl.gz');
    await writeSyntheticSession(plain, {
      seed: 9,
      startTime: Date.UTC(2024, 0, 1),
      durationMs: 30 * 3_600_000,
      markets: SYNTHETIC_MARKETS.filter((m) => m.sym === SYNTHETIC_BTC_PERP.sym).map((m) => ({
        ...m,
        meanEventMs: 1000,
      })),
    });
    // What `gzip -c btc30h.jsonl > btc30h.jsonl.gz` writes: one member for the whole file.
    writeFileSync(gz, gzipSync(readFileSync(plain)));
  }, 60_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const run = (path: string) =>
    runBacktest({
      ...wideQuotingRunOptions(path),
      closeAtEnd: true,
    });

  it('finds the last receive time of the gzipped file as of the plain one', async () => {
    const last = await readLastRecvTs(plain);
    expect(last).toBeDefined();
    expect(await readLastRecvTs(gz)).toBe(last);
  });

  it('gives the same metrics for both files', async () => {
    const a = await run(plain);
    const b = await run(gz);
    try {
      expect(b.fills.length).toBe(a.fills.length); // the same trading
      expect(b.metrics.maxDrawdown).toBe(a.metrics.maxDrawdown);
      expect(b.metrics.sharpe).toBe(a.metrics.sharpe);
    } finally {
      a.dispose?.();
      b.dispose?.();
    }
  }, 120_000);
});
