import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { keelChild } from '../../kit/keel-child-process.ts';
import { syntheticSessionFile } from '../../kit/synthetic-session-files.ts';

const NOW_PROBE = resolve('test/config/fixtures/now-probe-plugin.ts');

/** The built-in twap with the params of config/examples/twap-backtest.yaml (2 BTC, 20 slices, 20 min), and the now() probe. */
const STRATEGIES = `instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - id: twap_btc
    use: twap
    params: { sym: BINANCE_PERP_BTC_USDT, side: BUY, totalQty: 2, durationMs: 1200000, slices: 20, aggressionTicks: 1 }
  - id: probe
    use: ${NOW_PROBE}
    params: { sym: BINANCE_PERP_BTC_USDT, every: 400 }
`;

const paperConfig = (recording: string) => `mode: paper
${STRATEGIES}paper:
  lockstep: true
  speed: 1000000
  source: { kind: recording, path: ${recording} }
  startingCash: { USDT: 500000 }
  fillModel: queue
recording: { path: out/paper.jsonl.gz }
report: { html: out/paper.html, json: out/paper.json }
logging: { level: warn }
metrics: { enabled: false }
`;

/** The backtest of the paper session's own recording, with the paper venue's models. */
const REPLAY = `mode: backtest
${STRATEGIES}backtest:
  recordings: [out/paper.jsonl.gz]
  startingCash: { USDT: 500000 }
  fillModel: queue
  latency: { fixedMs: 0, jitterMs: 0 }
  closeAtEnd: false
report: { html: out/replay.html, json: out/replay.json }
`;

type Result = {
  fills: { clientOrderId: string; side: string; price: string; quantity: string; timestamp: number }[];
  orders: { clientOrderId: string }[];
};
const resultOf = (dir: string, name: string) =>
  JSON.parse(readFileSync(join(dir, `out/${name}.json`), 'utf8')) as Result;
/** A paper run tags its generated references (`twap_btc-tk3x9a4f-2`), its backtest does not (`twap_btc-2`). */
const untagged = (ref: string) => ref.replace(/^(\w+)-[0-9a-z]{8}-([0-9a-z]+)$/, '$1-$2');
const fillLines = (result: Result) =>
  result.fills.map(
    (f) => `${untagged(f.clientOrderId)} ${f.side} ${f.quantity} @ ${f.price} t=${f.timestamp}`,
  );

describe('a lockstep paper session of a timer strategy, then a backtest of its recording', () => {
  const session = syntheticSessionFile({ seed: 11, minutes: 22, file: 'session.jsonl.gz' });
  let paperRun: { code: number | null; stdout: string; stderr: string };
  beforeAll(() => {
    writeFileSync(join(session.dir, 'package.json'), '{"type":"module"}');
    writeFileSync(join(session.dir, 'paper.yaml'), paperConfig(session.path));
    writeFileSync(join(session.dir, 'replay.yaml'), REPLAY);
    paperRun = keelChild(['run', 'paper.yaml'], { cwd: session.dir });
  }, 120_000);

  it('runs the twap on the replayed time: its 20 slices fill as in the backtest of the recording, at the same times and prices', () => {
    expect(paperRun.code, paperRun.stderr).toBe(0);
    const replay = keelChild(['backtest', 'replay.yaml', '--no-progress'], { cwd: session.dir });
    expect(replay.code, replay.stderr).toBe(0);
    const paper = fillLines(resultOf(session.dir, 'paper'));
    const backtest = fillLines(resultOf(session.dir, 'replay'));
    expect(paper.filter((line) => line.startsWith('twap_btc-'))).toHaveLength(20);
    expect(paper).toEqual(backtest);
  }, 120_000);

  it('gives ctx.now() the time the events carry, not the wall clock', () => {
    expect(paperRun.code, paperRun.stderr).toBe(0);
    const probes = resultOf(session.dir, 'paper')
      .orders.map((o) => /^q(\d+)t(\d+)$/.exec(o.clientOrderId))
      .filter((m) => m !== null)
      .map((m) => ({ now: Number(m[1]), quoteTs: Number(m[2]) }));
    expect(probes.length).toBeGreaterThan(3);
    for (const { now, quoteTs } of probes) {
      expect(now).toBeGreaterThanOrEqual(quoteTs);
      expect(now - quoteTs).toBeLessThan(1000);
    }
  });
});
