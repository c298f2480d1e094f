import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { SYNTHETIC_MARKETS, writeSyntheticSession } from '../../backtest/synthetic/index.ts';

/** Where a suite's session file lies; both are set before the suite's first test runs. */
export interface SessionFile {
  /** The suite's own temporary directory (other files of the suite may go there too). */
  dir: string;
  /** The recording. */
  path: string;
}

/** What the session holds. */
export interface SessionFileOptions {
  /** Seed of the synthetic data. */
  readonly seed: number;
  /** Venue-time length, minutes. */
  readonly minutes: number;
  /** File name; `.jsonl.gz` is gzipped. Default `session.jsonl`. */
  readonly file?: string;
  /** The one market simulated. Default the synthetic BTC perpetual. */
  readonly sym?: string;
}

/**
 * A SYNTHETIC session of one market, written to a temporary directory before the tests of the
 * describe block this is called in, and removed after them.
 * @param options - seed, length, file name and market
 * @returns the directory and the recording's path, filled in by the block's beforeAll
 */
export function syntheticSessionFile(options: SessionFileOptions): SessionFile {
  const file: SessionFile = { dir: '', path: '' };
  const sym = options.sym ?? 'BINANCE_PERP_BTC_USDT';
  beforeAll(async () => {
    file.dir = await mkdtemp(join(tmpdir(), 'keel-session-'));
    file.path = join(file.dir, options.file ?? 'session.jsonl');
    await writeSyntheticSession(file.path, {
      seed: options.seed,
      startTime: Date.UTC(2024, 0, 1),
      durationMs: options.minutes * 60_000,
      markets: SYNTHETIC_MARKETS.filter((m) => m.sym === sym),
    });
  });
  afterAll(async () => {
    await rm(file.dir, { recursive: true, force: true });
  });
  return file;
}
