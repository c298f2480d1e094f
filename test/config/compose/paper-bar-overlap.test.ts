import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedMessage } from '../../../backtest/recording/index.ts';
import { keelChild } from '../../kit/keel-child-process.ts';
import { writeRecording } from '../../kit/recording-files.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

// The paper venue embeds the sim: a paper session on the bar fill model over 1m and 5m klines of
// one sym says, as the backtest of the same recording does, that the 5m bars were passed over.
const SYM = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2025, 2, 3);
const MIN = 60_000;
const tempDir = tempDirsRemovedAfterEach('keel-paper-overlap-');

/** A closed kline of `minutes` minutes opening `i` minutes after T0, received at its close. */
function kline(i: number, minutes: 1 | 5): RecordedMessage {
  const open = 100 * 1.005 ** i;
  const [o, h, l, c] = [open, open * 1.015, open * 0.999, open * 1.005].map((p) => p.toFixed(1));
  const openTime = T0 + i * MIN;
  const ts = openTime + minutes * MIN;
  return {
    recvTs: ts,
    source: 'market-data',
    msg: {
      arg: { channel: 'KLINE', sym: SYM, interval: `${minutes}m` },
      data: { openTime, open: o, high: h, low: l, close: c, volume: '10', closed: true, ts },
    },
  };
}

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
