import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedMessage } from '../../../backtest/recording/index.ts';
import { keelChild } from '../../kit/keel-child-process.ts';
import { writeRecording } from '../../kit/recording-files.ts';
import { risingKline } from '../../kit/rising-klines.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

// The paper venue embeds the sim: a paper session on the bar fill model over 1m and 5m klines of
// one sym says, as the backtest of the same recording does, that the 5m bars were passed over.
const SYM = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2025, 2, 3);
const tempDir = tempDirsRemovedAfterEach('keel-paper-overlap-');

const kline = (i: number, minutes: 1 | 5): RecordedMessage => risingKline(SYM, T0, i, minutes);

/** 30 rising 1m klines, and after every fifth the 5m kline of those five. */
function oneAndFiveMinuteKlines(): RecordedMessage[] {
  return Array.from({ length: 30 }, (_, i) =>
    (i + 1) % 5 === 0 ? [kline(i, 1), kline(i - 4, 5)] : [kline(i, 1)],
  ).flat();
}

const STRATEGY = `instruments: [${SYM}]
strategies:
  - { id: s, use: sma-cross, params: { sym: ${SYM}, fast: 2, slow: 3 } }
`;

describe('a paper session on the bar fill model over bars of several intervals', () => {
  it('warns, as the backtest of its recording does, that the coarser bars were passed over', async () => {
    const dir = tempDir();
    const recording = join(dir, 'one-and-five.jsonl');
    await writeRecording(recording, oneAndFiveMinuteKlines());
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    writeFileSync(
      join(dir, 'paper.yaml'),
      `mode: paper\n${STRATEGY}paper:\n  lockstep: true\n  speed: 1000000\n  fillModel: bar\n  source: { kind: recording, path: ${recording} }\n  startingCash: { USDT: 100000 }\nreport: { html: out/paper.html, json: out/paper.json }\nlogging: { level: warn }\nmetrics: { enabled: false }\n`,
    );
    writeFileSync(
      join(dir, 'backtest.yaml'),
      `mode: backtest\n${STRATEGY}backtest:\n  recordings: [${recording}]\n  fillModel: bar\n  startingCash: { USDT: 100000 }\n  closeAtEnd: false\nreport: { html: out/backtest.html, json: out/backtest.json }\n`,
    );
    const overlapWarnings = (name: string, args: string[]) => {
      const run = keelChild(args, { cwd: dir });
      expect(run.code, run.stderr).toBe(0);
      const result = JSON.parse(readFileSync(join(dir, `out/${name}.json`), 'utf8')) as {
        meta: { warnings: string[] };
      };
      return result.meta.warnings.filter((w) => w.includes('bars of several intervals'));
    };
    const backtest = overlapWarnings('backtest', ['backtest', 'backtest.yaml', '--no-progress']);
    const paper = overlapWarnings('paper', ['run', 'paper.yaml']);
    expect(backtest).toEqual([
      expect.stringContaining(
        `the recordings held ${SYM} bars of several intervals: orders were matched against the 1m bars, and 6 5m bars`,
      ),
    ]);
    expect(paper).toEqual(backtest);
  }, 90_000);
});
