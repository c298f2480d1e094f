import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedMessage } from '../../../backtest/recording/index.ts';
import { keelInProcess } from '../../kit/keel-in-process.ts';
import { readAll, tempDir, writeRecording } from '../../kit/recording-files.ts';

const BUY_ONCE = resolve('test/config/fixtures/buy-once-plugin.ts');
const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2025, 0, 7);
const MIN = 60_000;

/** A mark stamped 1 ms before it is received, as a venue's feed is. */
const mark = (recvTs: number, markPrice: string): RecordedMessage => ({
  recvTs,
  source: 'market-data',
  msg: { arg: { channel: 'MARK_PRICE', sym: BTC }, data: { markPrice, ts: recvTs - 1 } },
});
const bbo = (recvTs: number, bid: string, ask: string): RecordedMessage => ({
  recvTs,
  source: 'market-data',
  msg: { arg: { channel: 'BBO', sym: BTC }, data: { bid, bidqty: '50', ask, askqty: '50', ts: recvTs } },
});

/**
 * Long 1 BTC bought at the ask 100000.1 (fee 50.00005) on 5500 USDT: equity p - 94550.10005,
 * maintenance 0.005 p. The marks fall to 95085 (MARGIN_CALL from 95144.75, liquidation below
 * 95025.23) and stay there two minutes, then recover to 96000 (NORMAL again).
 */
function records(): RecordedMessage[] {
  const out: RecordedMessage[] = [mark(T0 + 1, '100000'), bbo(T0 + 1, '99999.9', '100000.1')];
  const marks = ['99000', '97000', '95085', '95085', '96000'];
  for (let minute = 1; minute <= 6; minute++) {
    const at = T0 + minute * MIN;
    const price = marks[minute - 1];
    if (price !== undefined) out.push(mark(at + 1, price));
    for (let s = 0; s < 60; s += 10) out.push(bbo(at + s * 1000 + 5, '95000.0', '95000.2'));
  }
  return out;
}

const SETUP = `instruments: [${BTC}]
strategies:
  - id: buy
    use: ${BUY_ONCE}
    params: { sym: ${BTC}, qty: 1 }
`;

const PAPER = `mode: paper
${SETUP}paper:
  lockstep: true
  speed: 1000000
  source: { kind: recording, path: feed.jsonl.gz }
  fillModel: touch
  startingCash: { USDT: 5500 }
recording: { path: out/paper.jsonl.gz }
report: { html: out/paper.html, json: out/paper.json }
logging: { level: warn }
metrics: { enabled: false }
`;

const REPLAY = `mode: backtest
${SETUP}backtest:
  recordings: [out/paper.jsonl.gz]
  startingCash: { USDT: 5500 }
  fillModel: touch
  latency: { fixedMs: 0, jitterMs: 0 }
  closeAtEnd: false
report: { html: out/replay.html, json: out/replay.json }
`;

type Result = {
  equityCurve: { ts: number; equity: string }[];
  fills: { price: string }[];
  liquidations: unknown[];
};
const resultOf = (dir: string, name: string) =>
  JSON.parse(readFileSync(join(dir, `out/${name}.json`), 'utf8')) as Result;

describe('a paper session whose account enters MARGIN_CALL on a mark, then a backtest of its recording', () => {
  const { dir, remove } = tempDir();
  let paperRun: { code: number | null; stderr: string };
  let replayRun: { code: number | null; stderr: string };
  beforeAll(async () => {
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    await writeRecording(join(dir, 'feed.jsonl.gz'), records());
    writeFileSync(join(dir, 'paper.yaml'), PAPER);
    writeFileSync(join(dir, 'replay.yaml'), REPLAY);
    paperRun = await keelInProcess(['run', 'paper.yaml'], { cwd: dir });
    replayRun = await keelInProcess(['backtest', 'replay.yaml', '--no-progress'], { cwd: dir });
  }, 120_000);
  afterAll(remove);

  it('gives the same equity curve in paper (ctx.equity()) as the backtest (the venue’s own equity)', () => {
    expect(paperRun.code, paperRun.stderr).toBe(0);
    expect(replayRun.code, replayRun.stderr).toBe(0);
    const paper = resultOf(dir, 'paper');
    const backtest = resultOf(dir, 'replay');
    expect(paper.fills.map((f) => f.price)).toEqual(['100000.1']);
    expect(backtest.liquidations).toEqual([]);
    // The venue's equity in MARGIN_CALL at 95085: 95085 - 94550.10005.
    const inCall = backtest.equityCurve.filter((p) => p.ts > T0 + 3 * MIN + 1 && p.ts < T0 + 5 * MIN);
    expect(inCall.length).toBeGreaterThan(3);
    expect(new Set(inCall.map((p) => p.equity))).toEqual(new Set(['534.89995']));
    const atSameTs = new Map(backtest.equityCurve.map((p) => [p.ts, p.equity]));
    const shared = paper.equityCurve.filter((p) => atSameTs.has(p.ts));
    expect(shared.length).toBeGreaterThan(inCall.length);
    const diff = shared
      .filter((p) => atSameTs.get(p.ts) !== p.equity)
      .map((p) => `t=${new Date(p.ts).toISOString()}: paper ${p.equity} | backtest ${atSameTs.get(p.ts)}`);
    expect(diff, diff.join('\n')).toEqual([]);
  });

  it('recorded the venue entering MARGIN_CALL and leaving it', async () => {
    const { records: recorded } = await readAll(join(dir, 'out/paper.jsonl.gz'));
    const statuses = recorded
      .filter((r) => r.source === 'private' && JSON.stringify(r.msg).includes('"Accounts"'))
      .map((r) => (JSON.stringify(r.msg).match(/"accountStatus":"(\w+)"/) ?? [])[1]);
    expect(statuses).toContain('MARGIN_CALL');
    expect(statuses.at(-1)).toBe('NORMAL');
  });
});
