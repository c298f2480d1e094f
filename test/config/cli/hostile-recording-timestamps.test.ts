import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const tempDir = tempDirsRemovedAfterEach('keel-sec-ts-');
const EXAMPLE = 'config/examples/sma-cross-backtest.yaml';
/** The example session's first 20 000 lines (2025-01-06 14:30 to 14:50 UTC). */
const BASE = gunzipSync(readFileSync('backtest/sessions/example-synthetic.jsonl.gz'))
  .toString('utf8')
  .split('\n')
  .slice(0, 20_000)
  .join('\n');

/** The base recording plus one trade line whose receive time is `recvTs` as written in the JSON. */
function withStrayLine(dir: string, recvTs: string): string {
  const path = join(dir, 'session.jsonl');
  const stray = `{"recvTs":${recvTs},"source":"market-data","msg":{"arg":{"channel":"TRADE","sym":"BINANCE_PERP_BTC_USDT"},"data":{"price":"95000.0","qty":"0.01","side":"BUY","tradeId":"x1","ts":1736175000000}}}`;
  writeFileSync(path, `${BASE}\n${stray}\n`);
  return path;
}

function backtest(dir: string, recording: string) {
  const run = spawnSync(
    process.execPath,
    [
      resolve('bin/keel.js'),
      'backtest',
      EXAMPLE,
      '--no-progress',
      '--recording',
      recording,
      '--set',
      'backtest.eventCache=false',
      '--set',
      `report.json=${join(dir, 'result.json')}`,
      '--set',
      `report.html=${join(dir, 'report.html')}`,
    ],
    { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' }, timeout: 60_000, killSignal: 'SIGKILL' },
  );
  const result = run.status === 0 ? JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) : undefined;
  return {
    code: run.status,
    signal: run.signal,
    out: `${run.stdout}${run.stderr}`,
    warnings: (result?.meta.warnings ?? []) as string[],
    days: result === undefined ? undefined : Math.round(result.metrics.durationMs / 86_400_000),
  };
}

describe('a downloaded recording with one record stamped far from the rest', () => {
  it('recvTs 1e309 (JSON.parse gives Infinity): the line is skipped and counted as malformed, naming it, not a run that never ends', () => {
    const dir = tempDir();
    const run = backtest(dir, withStrayLine(dir, '1e309'));
    expect({ signal: run.signal, code: run.code, days: run.days }).toEqual({
      signal: null,
      code: 0,
      days: 0,
    });
    expect(run.warnings.join('\n')).toMatch(
      /skipped 1 line .*session\.jsonl:20001: recvTs must be epoch milliseconds .*not Infinity/,
    );
  }, 90_000);

  it('recvTs 8.7e15 (past the Date range): skipped and counted, naming the file and line instead of a bare "Invalid time value"', () => {
    const dir = tempDir();
    const run = backtest(dir, withStrayLine(dir, '8.7e15'));
    expect({ code: run.code, days: run.days }).toEqual({ code: 0, days: 0 });
    expect(run.warnings.join('\n')).toMatch(
      /session\.jsonl:20001: recvTs must be epoch milliseconds .*not 8700000000000000/,
    );
    expect(run.out).not.toMatch(/Invalid time value/);
  }, 90_000);

  it('recvTs in 2099 after 20 minutes of 2025 data: the run warns, naming the line, rather than annualizing over 75 years in silence', () => {
    const dir = tempDir();
    const run = backtest(dir, withStrayLine(dir, '4.1e12'));
    expect(run.code).toBe(0);
    expect(run.warnings.join('\n')).toMatch(
      /receive time jumps once by more than 30 days .*session\.jsonl:20001: recvTs jumps 2735\d days forward/,
    );
  }, 90_000);

  it('a recvTs that is a fraction of a millisecond is not one', () => {
    const dir = tempDir();
    const run = backtest(dir, withStrayLine(dir, '1736175000000.5'));
    expect(run.warnings.join('\n')).toMatch(/session\.jsonl:20001: recvTs must be epoch milliseconds/);
  }, 90_000);
});
