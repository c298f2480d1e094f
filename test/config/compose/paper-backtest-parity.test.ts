import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStart } from '../../../config/start-run.ts';
import { keelChild } from '../../kit/keel-child-process.ts';

const PAPER = resolve('config/examples/market-maker-paper.yaml');
const REPLAY = resolve('config/examples/replay-paper-session.yaml');

type FillRow = { clientOrderId: string; side: string; price: string; quantity: string; timestamp: number };
const fillsOf = (file: string) =>
  (JSON.parse(readFileSync(file, 'utf8')) as { fills: FillRow[] }).fills.map(
    (f) => `${f.clientOrderId} ${f.side} ${f.quantity} @ ${f.price} t=${f.timestamp}`,
  );

type CurveResult = {
  equityCurve: { ts: number; equity: string }[];
  metrics: { equityFinal: number | string };
  fills: { timestamp: number }[];
};
const curveOf = (file: string) => {
  const result = JSON.parse(readFileSync(file, 'utf8')) as CurveResult;
  return {
    curve: result.equityCurve,
    final: result.metrics.equityFinal,
    fillTimes: result.fills.map((f) => f.timestamp),
  };
};

describe('npm start, then a backtest of its recording', () => {
  let dir: string;
  let cwd: string;
  let stdout = '';
  let code: number;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'keel-start-'));
    cwd = process.cwd();
    process.chdir(dir);
    try {
      code = await runStart(PAPER, 4, {
        stdout: { write: (text: string) => (stdout += text) },
        stderr: { write: () => true },
      });
    } finally {
      process.chdir(cwd);
    }
    // The replay config reads ../../out/paper-session.jsonl.gz: give it the same layout.
    const examples = join(dir, 'config', 'examples');
    spawnSync('mkdir', ['-p', examples]);
    copyFileSync(REPLAY, join(examples, 'replay-paper-session.yaml'));
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 0, prints SYNTHETIC, the fills and where recording and report went', () => {
    expect(code).toBe(0);
    expect(stdout).toContain('SYNTHETIC');
    expect(stdout).toMatch(/ fill mm_btc-\w+ (BUY|SELL) 0\.01 BINANCE_PERP_BTC_USDT @/);
    expect(stdout).toContain('recording: out/paper-session.jsonl.gz');
    expect(stdout).toContain('report:    out/paper-report.html');
    expect(existsSync(join(dir, 'out/paper-session.jsonl.gz'))).toBe(true);
    expect(existsSync(join(dir, 'out/paper-report.html'))).toBe(true);
  });

  it('starts the equity curve at the first event, not at the 0 the venue clock reads before it', () => {
    const result = JSON.parse(readFileSync(join(dir, 'out/paper-result.json'), 'utf8')) as {
      equityCurve: { ts: number }[];
      metrics: { durationMs: number; annualizedReturn: number | null };
    };
    expect(result.equityCurve[0]?.ts).toBeGreaterThan(Date.UTC(2020, 0, 1));
    // A few seconds of SYNTHETIC venue time: far under a day, so nothing is annualized.
    expect(result.metrics.durationMs).toBeLessThan(86_400_000);
    expect(result.metrics.annualizedReturn).toBeNull();
  });

  it('backtesting the recording reproduces the paper fills in order (parity)', () => {
    const run = keelChild(['backtest', 'config/examples/replay-paper-session.yaml', '--no-progress'], {
      cwd: dir,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const paper = fillsOf(join(dir, 'out/paper-result.json'));
    const backtest = fillsOf(join(dir, 'out/replay-paper-session-result.json'));
    expect(paper.length).toBeGreaterThan(3);
    const diff = paper
      .map((line, i) =>
        line === backtest[i] ? undefined : `#${i}: paper ${line} | backtest ${backtest[i] ?? '(none)'}`,
      )
      .filter((line) => line !== undefined);
    expect(diff, diff.join('\n')).toEqual([]);
    expect(backtest).toHaveLength(paper.length);
  }, 60_000);

  it('values the session as its backtest does: same final equity, same equity at the instants both sampled', () => {
    // Paper equity used to be the venue's last report, which changes only on fills, so an open
    // position stayed at its fill price: final equity and the curve differed from the backtest's.
    const paper = curveOf(join(dir, 'out/paper-result.json'));
    const backtest = curveOf(join(dir, 'out/replay-paper-session-result.json'));
    expect(paper.final).toBe(backtest.final);
    const atSameTs = new Map(backtest.curve.map((s) => [s.ts, s.equity]));
    const shared = paper.curve.filter((s) => atSameTs.has(s.ts));
    expect(shared.length).toBeGreaterThan(0);
    const diff = shared
      .filter((s) => atSameTs.get(s.ts) !== s.equity)
      .map((s) => `t=${s.ts}: paper ${s.equity} | backtest ${atSameTs.get(s.ts)}`);
    expect(diff, diff.join('\n')).toEqual([]);
    // An open position moves the curve between fills: some step of the curve has no fill in it.
    const movesWithoutFill = paper.curve.filter((b, i) => {
      const a = paper.curve[i - 1];
      return a !== undefined && a.equity !== b.equity && !paper.fillTimes.some((t) => t > a.ts && t <= b.ts);
    });
    expect(movesWithoutFill.length).toBeGreaterThan(0);
  });

  it('keel report rebuilds the HTML from the result alone', () => {
    rmSync(join(dir, 'out/paper-report.html'));
    const run = keelChild(['report', 'out/paper-result.json'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(readFileSync(join(dir, 'out/paper-report.html'), 'utf8')).toContain('SYNTHETIC');
  }, 30_000);
});
