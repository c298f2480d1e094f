import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type PaperVenue, startPaperVenue, syntheticFeed } from '../../../backtest/paper-venue/index.ts';
import { readSessionHeader } from '../../../backtest/recording/index.ts';
import { SYNTHETIC_INSTRUMENTS } from '../../../backtest/synthetic/index.ts';
import { EXIT } from '../../../config/cli/index.ts';
import { D } from '../../../core/model/index.ts';
import { keelChild } from '../../kit/keel-child-process.ts';

/** A local port nothing listens on: one the system just handed out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise<void>((done) => server.close(() => done()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

const dir = mkdtempSync(join(tmpdir(), 'keel-live-'));
let venue: PaperVenue | undefined;
afterEach(async () => {
  await venue?.close();
  venue = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('keel run in live mode', () => {
  it('trades against the venue at the configured URL, logs at debug, never prints the key or secret, and labels what it writes SYNTHETIC when the venue says its feed is', async () => {
    venue = await startPaperVenue({
      instruments: Object.values(SYNTHETIC_INSTRUMENTS),
      startingBalances: { USDT: D(100_000) },
      apiKey: 'live-key-7d1c9e2a',
      apiSecret: 'live-secret-4b8f0a63e1',
      feed: syntheticFeed({ seed: 5, startTime: Date.now() }),
      syntheticFeed: true,
      pacing: { mode: 'realtime', speed: 20 },
    });
    const child = spawn(
      process.execPath,
      [
        resolve('bin/keel.js'),
        'run',
        'config/examples/market-maker-live.yaml',
        '--duration',
        '3',
        ...[
          'logging.level=debug',
          'metrics.port=0',
          `recording.path=${join(dir, 'live.jsonl.gz')}`,
          `report.json=${join(dir, 'live-result.json')}`,
          `report.html=${join(dir, 'live-report.html')}`,
        ].flatMap((set) => ['--set', set]),
      ],
      {
        env: {
          PATH: process.env.PATH ?? '',
          KEEL_REST_URL: venue.restUrl,
          KEEL_API_KEY: venue.apiKey,
          KEEL_API_SECRET: venue.apiSecret,
        },
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += String(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += String(chunk);
    });
    const code = await new Promise<number | null>((done) => child.once('exit', (c) => done(c)));
    expect(output).toContain(`live run against ${venue.restUrl}`);
    expect(output).toMatch(/Session done: \d+ events/);
    expect(output).toContain('"level":20');
    expect(code).toBe(EXIT.OK);
    expect(output).not.toContain('live-secret-4b8f0a63e1');
    expect(output).not.toContain('live-key-7d1c9e2a');
    expect(existsSync(join(dir, 'live.jsonl.gz')) && existsSync(join(dir, 'live-report.html'))).toBe(true);
    expect(output).toContain(`live run against ${venue.restUrl} (SYNTHETIC market data)`);
    expect((await readSessionHeader(join(dir, 'live.jsonl.gz'))).synthetic).toBe(true);
    expect(await readFile(join(dir, 'live-report.html'), 'utf8')).toContain('SYNTHETIC');
  }, 60_000);

  it('says it could not reach the venue and exits 1 after its retries, instead of exiting mid-backoff', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const run = keelChild(['run', 'config/examples/market-maker-live.yaml', '--duration', '3'], {
      env: { KEEL_REST_URL: url, KEEL_API_KEY: 'k', KEEL_API_SECRET: 's' },
    });
    const output = run.stdout + run.stderr;
    expect(output).toContain('retrying venue GET');
    expect(output).toMatch(/could not reach the venue: .*ECONNREFUSED.*\(after \d+ attempts\)/);
    expect(run.code).toBe(EXIT.RUNTIME_FAILURE);
  }, 60_000);
});
