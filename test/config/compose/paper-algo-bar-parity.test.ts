import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { keelChild } from '../../kit/keel-child-process.ts';

// A lockstep paper session of `bracket` with `exits: algo` (REST algo orders) against the
// backtest of the session's OWN recording (the parity config/examples/replay-paper-session.yaml
// promises). The algo orders' User Data events were stamped with the REST Date-header clock (the
// machine's, 2026, in lockstep) instead of the session's replay clock (2025): the kernel's bar
// aggregator (closeDueAt) took that stamp as "the period is over" and delivered the forming 1m bar
// ~60 s early, so the strategy entered inside a bar in paper and on the bar's close in the backtest.
const RECORDING = resolve('backtest/sessions/example-synthetic.jsonl.gz');
const STRATEGIES = `instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - id: br_btc
    use: bracket
    params: { sym: BINANCE_PERP_BTC_USDT, interval: 1m, qty: 0.05, trendBars: 2, takeProfit: 0.0008, stopLoss: 0.0008, exits: algo }
`;
const PAPER = `mode: paper
${STRATEGIES}paper:
  lockstep: true
  speed: 1000000
  source: { kind: recording, path: ${RECORDING} }
  startingCash: { USDT: 100000 }
  fillModel: queue
recording: { path: out/paper.jsonl.gz }
report: { html: out/paper.html, json: out/paper.json }
logging: { level: warn }
metrics: { enabled: false }
`;
const REPLAY = `mode: backtest
${STRATEGIES}backtest:
  recordings: [out/paper.jsonl.gz]
  startingCash: { USDT: 100000 }
  fillModel: queue
  latency: { fixedMs: 0, jitterMs: 0 }
  closeAtEnd: false
report: { html: out/replay.html, json: out/replay.json }
`;
type Result = {
  fills: { clientOrderId: string; side: string; price: string; quantity: string; timestamp: number }[];
  meta: { warnings: string[] };
};
const resultOf = (dir: string, name: string) =>
  JSON.parse(readFileSync(join(dir, `out/${name}.json`), 'utf8')) as Result;
const untagged = (ref: string) => ref.replace(/^(\w+)-[0-9a-z]{8}-([0-9a-z-]+)$/, '$1-$2');
const fillLines = (r: Result) =>
  r.fills.map((f) => `${untagged(f.clientOrderId)} ${f.side} ${f.quantity} @ ${f.price} t=${f.timestamp}`);

describe('paper (lockstep) vs backtest of its recording, bracket with algo exits', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parity29-'));
  let paperRun: { code: number | null; stdout: string; stderr: string };
  beforeAll(() => {
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    writeFileSync(join(dir, 'paper.yaml'), PAPER);
    writeFileSync(join(dir, 'replay.yaml'), REPLAY);
    paperRun = keelChild(['run', 'paper.yaml'], { cwd: dir });
  }, 240_000);

  it('gives the same fills and no late-trade warning of its own', () => {
    expect(paperRun.code, paperRun.stderr).toBe(0);
    const replay = keelChild(['backtest', 'replay.yaml', '--no-progress'], { cwd: dir });
    expect(replay.code, replay.stderr).toBe(0);
    expect(fillLines(resultOf(dir, 'paper'))).toEqual(fillLines(resultOf(dir, 'replay')));
    expect(
      resultOf(dir, 'paper').meta.warnings.filter((w) => w.includes('arrived after the 1m bar')),
    ).toEqual([]);
  }, 240_000);
});
