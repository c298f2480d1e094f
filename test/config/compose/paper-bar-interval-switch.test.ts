import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedMessage } from '../../../backtest/recording/index.ts';
import { keelChild } from '../../kit/keel-child-process.ts';
import { writeRecording } from '../../kit/recording-files.ts';
import { risingKline } from '../../kit/rising-klines.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

// The paper venue feeds the same kernel: a paper session whose 1m klines give way to 5m klines
// part-way through one says, as the backtest of the same recording does, which 5m kline the 15m
// bars left out.
const SYM = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2025, 2, 3);
const MIN = 60_000;
const tempDir = tempDirsRemovedAfterEach('keel-paper-switch-');

const kline = (i: number, minutes: 1 | 5): RecordedMessage => risingKline(SYM, T0, i, minutes);

/** 1m klines of [0, 7m), then 5m klines from [5m, 10m) on, for two hours. */
function switchingKlines(): RecordedMessage[] {
  const ones = Array.from({ length: 7 }, (_, i) => kline(i, 1));
  const fives = Array.from({ length: 23 }, (_, p) => kline(5 + p * 5, 5));
  return [...ones, ...fives];
}

const STRATEGY = `instruments: [${SYM}]
strategies:
  - { id: s, use: sma-cross, params: { sym: ${SYM}, interval: 15m, fast: 2, slow: 3 } }
`;

describe('a paper session whose klines change interval part-way', () => {
  it('counts the overlapping 5m kline left out of the 15m bars, as the backtest of its recording does', async () => {
    const dir = tempDir();
    const recording = join(dir, 'switch.jsonl');
    await writeRecording(recording, switchingKlines());
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    writeFileSync(
      join(dir, 'paper.yaml'),
      `mode: paper\n${STRATEGY}paper:\n  lockstep: true\n  speed: 1000000\n  source: { kind: recording, path: ${recording} }\n  startingCash: { USDT: 100000 }\nreport: { html: out/paper.html, json: out/paper.json }\nlogging: { level: warn }\nmetrics: { enabled: false }\n`,
    );
    writeFileSync(
      join(dir, 'backtest.yaml'),
      `mode: backtest\n${STRATEGY}backtest:\n  recordings: [${recording}]\n  startingCash: { USDT: 100000 }\n  closeAtEnd: false\nreport: { html: out/backtest.html, json: out/backtest.json }\n`,
    );
    const leftOut = (name: string, args: string[]) => {
      const run = keelChild(args, { cwd: dir });
      expect(run.code, run.stderr).toBe(0);
      const result = JSON.parse(readFileSync(join(dir, `out/${name}.json`), 'utf8')) as {
        meta: { warnings: string[] };
      };
      return result.meta.warnings.filter((w) => w.includes('left out of the 15m bars'));
    };
    const backtest = leftOut('backtest', ['backtest', 'backtest.yaml', '--no-progress']);
    const paper = leftOut('paper', ['run', 'paper.yaml']);
    expect(backtest).toEqual([
      `1 5m bar of ${SYM} in the recordings began inside the finer bars the 15m bar it belongs to was being built from and ran past them (the first stamped ${new Date(T0 + 10 * MIN).toISOString()}), and was left out of the 15m bars so as not to count that part twice: the feed switched interval part-way through it, so the OHLCV of that bar lacks what it held after the finer bars`,
    ]);
    expect(paper).toEqual(backtest.map((w) => w.replace('in the recordings', 'in the feed')));
  }, 90_000);
});
