import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedMessage } from '../../../backtest/recording/index.ts';
import { keelChild } from '../../kit/keel-child-process.ts';
import { writeRecording } from '../../kit/recording-files.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

// The paper venue embeds the sim: a paper session on the bar fill model says what a backtest of
// the same recording says when a mark inside a bar reached the venue before the bar, and funding
// due inside that bar was settled before its open filled an order.
const SYM = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2025, 2, 3);
const MIN = 60_000;
const tempDir = tempDirsRemovedAfterEach('keel-paper-span-');

function kline(i: number): RecordedMessage {
  const open = 100 * 1.005 ** i;
  const [o, h, l, c] = [open, open * 1.015, open * 0.999, open * 1.005].map((p) => p.toFixed(1));
  const openTime = T0 + i * MIN;
  const ts = openTime + MIN;
  return {
    recvTs: ts,
    source: 'market-data',
    msg: {
      arg: { channel: 'KLINE', sym: SYM, interval: '1m' },
      data: { openTime, open: o, high: h, low: l, close: c, volume: '10', closed: true, ts },
    },
  };
}

/** A mark stamped `ts`, the next funding due at `next`. */
function mark(ts: number, next: number): RecordedMessage {
  return {
    recvTs: ts,
    source: 'market-data',
    msg: {
      arg: { channel: 'MARK_PRICE', sym: SYM },
      data: { markPrice: '100', fundingRate: '0.0001', nextFundingTime: next, ts },
    },
  };
}

/** 30 rising 1m bars; funding due 30 s into every bar, a mark 45 s into every bar rolling it on. */
function barsWithMarks(): RecordedMessage[] {
  const records: RecordedMessage[] = [kline(0)];
  for (let i = 1; i < 30; i++) {
    records.push(mark(T0 + i * MIN + 45_000, T0 + (i + 1) * MIN + 30_000), kline(i));
  }
  return records;
}

const STRATEGY = `instruments: [${SYM}]
strategies:
  - id: br
    use: bracket
    params: { sym: ${SYM}, qty: 1, trendBars: 2, takeProfit: 0.01, stopLoss: 0.02, exits: attached }
`;

describe('a paper session on the bar fill model with marks inside the bars', () => {
  it("warns, as the backtest of its recording does, of funding settled inside a bar before the bar's open fills", async () => {
    const dir = tempDir();
    const recording = join(dir, 'bars-marks.jsonl');
    // The first mark, stamped inside the second bar, says the funding due 30 s into it.
    const records = barsWithMarks();
    records.splice(1, 0, mark(T0 + MIN + 1, T0 + MIN + 30_000));
    await writeRecording(recording, records);
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    writeFileSync(
      join(dir, 'paper.yaml'),
      `mode: paper\n${STRATEGY}paper:\n  lockstep: true\n  speed: 1000000\n  fillModel: bar\n  source: { kind: recording, path: ${recording} }\n  startingCash: { USDT: 100000 }\nreport: { html: out/paper.html, json: out/paper.json }\nlogging: { level: warn }\nmetrics: { enabled: false }\nshutdown: { cancelAllOrders: true }\n`,
    );
    writeFileSync(
      join(dir, 'backtest.yaml'),
      `mode: backtest\n${STRATEGY}backtest:\n  recordings: [${recording}]\n  fillModel: bar\n  startingCash: { USDT: 100000 }\n  latency: { fixedMs: 0, jitterMs: 0 }\n  closeAtEnd: false\nreport: { html: out/backtest.html, json: out/backtest.json }\n`,
    );
    const spanWarnings = (name: string, args: string[]) => {
      const run = keelChild(args, { cwd: dir });
      expect(run.code, run.stderr).toBe(0);
      const result = JSON.parse(readFileSync(join(dir, `out/${name}.json`), 'utf8')) as {
        meta: { warnings: string[] };
        fills: unknown[];
      };
      expect(result.fills.length).toBeGreaterThan(0);
      return result.meta.warnings.filter((w) => w.includes("inside the bar's span"));
    };
    const backtest = spanWarnings('backtest', ['backtest', 'backtest.yaml', '--no-progress']);
    const paper = spanWarnings('paper', ['run', 'paper.yaml']);
    expect(backtest).toEqual([expect.stringContaining(`the funding of ${SYM}`)]);
    expect(paper).toEqual(backtest);
  }, 90_000);
});
