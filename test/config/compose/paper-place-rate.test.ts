import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { keelChild } from '../../kit/keel-child-process.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2025, 2, 3);
const PLUGIN = resolve('test/config/fixtures/many-places-plugin.ts');
const tempDir = tempDirsRemovedAfterEach('keel-paper-place-rate-');

const STRATEGY = `instruments: [${BTC}]
strategies:
  - id: many
    use: ${PLUGIN}
    params: { sym: ${BTC}, perBar: 40 }
`;

describe('a paper replay faster than the wall clock', () => {
  it("places every order the backtest places: the venue's place limit (1200 per 60 s) counts replay time", async () => {
    // 31 one-minute bars, 40 places a bar: 40 a minute of the replay, 1240 within a few wall seconds.
    const dir = tempDir();
    const bars = await barsRecordingIn(
      dir,
      Array.from({ length: 31 }, () => [100, 101, 99, 100]),
      T0,
      BTC,
    );
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    writeFileSync(
      join(dir, 'paper.yaml'),
      `mode: paper\n${STRATEGY}paper:\n  lockstep: true\n  speed: 1000000\n  source: { kind: recording, path: ${bars} }\nreport: { html: out/paper.html, json: out/paper.json }\nlogging: { level: warn }\nmetrics: { enabled: false }\nshutdown: { cancelAllOrders: true }\n`,
    );
    writeFileSync(
      join(dir, 'backtest.yaml'),
      `mode: backtest\n${STRATEGY}backtest:\n  recordings: [${bars}]\n  startingCash: { USDT: 100000 }\n  latency: { fixedMs: 0, jitterMs: 0 }\n  closeAtEnd: false\nreport: { html: out/backtest.html, json: out/backtest.json }\n`,
    );
    const paperRun = keelChild(['run', 'paper.yaml'], { cwd: dir });
    expect(paperRun.code, paperRun.stderr).toBe(0);
    const backtestRun = keelChild(['backtest', 'backtest.yaml', '--no-progress'], { cwd: dir });
    expect(backtestRun.code, backtestRun.stderr).toBe(0);
    type Result = { orders: { createAt: number; orderState: string }[]; denials: unknown[] };
    const read = (name: string) => JSON.parse(readFileSync(join(dir, `out/${name}.json`), 'utf8')) as Result;
    const paper = read('paper');
    const backtest = read('backtest');
    expect(backtest.orders).toHaveLength(1240);
    expect(paper.denials).toEqual(backtest.denials);
    expect(paper.orders.map((o) => o.createAt)).toEqual(backtest.orders.map((o) => o.createAt));
  }, 120_000);
});
