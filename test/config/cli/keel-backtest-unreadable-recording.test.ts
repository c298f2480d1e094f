import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { keelInProcess } from '../../kit/keel-in-process.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const tempDir = tempDirsRemovedAfterEach('keel-unreadable-recording-');
const SESSION = 'backtest/sessions/example-synthetic.jsonl.gz';
const EXAMPLE = 'config/examples/sma-cross-backtest.yaml';

/** The example session's header line, followed by `lines`. */
function recordingOf(dir: string, lines: readonly string[]): string {
  const header = gunzipSync(readFileSync(SESSION)).toString('utf8').split('\n', 1)[0];
  const path = join(dir, 'session.jsonl');
  writeFileSync(path, `${[header, ...lines].join('\n')}\n`);
  return path;
}

async function backtest(dir: string, recording: string) {
  const json = join(dir, 'result.json');
  const run = await keelInProcess([
    'backtest',
    EXAMPLE,
    '--no-progress',
    '--recording',
    recording,
    '--set',
    `report.json=${json}`,
    '--set',
    `report.html=${join(dir, 'report.html')}`,
  ]);
  return { ...run, wroteResult: existsSync(json) };
}

// A CI's `keel backtest` of a file that is not a Keel recording passed: exit 0, an empty report.
describe('keel backtest of a recording none of whose lines Keel can read', () => {
  it('exits 2 naming the file, how many lines are malformed and the first, and writes no result', async () => {
    const dir = tempDir();
    const path = recordingOf(dir, ['ts,open,high,low,close', '1704067200000,1,2,0.5,1.5']);
    const run = await backtest(dir, path);
    expect({ code: run.code, wroteResult: run.wroteResult }).toEqual({ code: 2, wroteResult: false });
    expect(run.stderr).toContain(
      `✖ keel backtest ${EXAMPLE}: ${path} holds no market data Keel can read: 2 lines after its header are malformed, the first at ${path}:2: is not JSON`,
    );
  }, 60_000);

  it('some lines malformed: exits 0, the summary counting them', async () => {
    const dir = tempDir();
    const lines = gunzipSync(readFileSync(SESSION)).toString('utf8').trimEnd().split('\n').slice(1, 400);
    const path = recordingOf(dir, [...lines, 'not json']);
    const run = await backtest(dir, path);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /⚠ recording .*session\.jsonl: skipped 1 line \(not JSON\) at .*session\.jsonl:401/,
    );
  }, 60_000);
});

/** A paper config replaying `recording`. */
function paperConfigIn(dir: string, recording: string): string {
  const config = join(dir, 'paper.yaml');
  writeFileSync(
    config,
    `mode: paper
instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - id: mm
    use: market-maker
    params: { sym: BINANCE_PERP_BTC_USDT, qty: 0.01, halfSpreadTicks: 30, skewTicksPerUnit: 200, maxPosition: 0.05, requoteTicks: 40 }
paper:
  source: { kind: recording, path: ${recording} }
report: { json: ${join(dir, 'result.json')}, html: ${join(dir, 'report.html')} }
`,
  );
  return config;
}

// The same file replayed on paper: the session ran on no market data until its duration ended.
describe('keel run and keel record of a paper config replaying such a recording', () => {
  for (const command of ['run', 'record']) {
    it(`keel ${command}: exits 2 before it starts, naming the file`, async () => {
      const dir = tempDir();
      const path = recordingOf(dir, ['ts,open,high,low,close', '1704067200000,1,2,0.5,1.5']);
      const run = await keelInProcess([
        command,
        paperConfigIn(dir, path),
        '--duration',
        '5',
        ...(command === 'record' ? ['--out', join(dir, 'out.jsonl')] : []),
      ]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(
        `paper.source: cannot read the market data: ${path} holds no market data Keel can read`,
      );
      expect(existsSync(join(dir, command === 'run' ? 'result.json' : 'out.jsonl'))).toBe(false);
    }, 60_000);
  }
});
