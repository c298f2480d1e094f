import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedMessage } from '../../../backtest/recording/index.ts';
import { keelInProcess } from '../../kit/keel-in-process.ts';
import { writeRecording } from '../../kit/recording-files.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

// A backtest closes trade-built bars on the events' venue stamps (Kernel.advanceTimers moves only
// its timers with the receive clock); a lockstep paper session's timer ticks must do the same.
const SYM = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2025, 2, 3);
const PLUGIN = resolve('test/config/fixtures/bar-timer-plugin.ts');
const tempDir = tempDirsRemovedAfterEach('keel-lockstep-bars-');

const TRADES: readonly [number, number, number][] = [
  [1_000, 1_000, 100],
  [59_980, 60_010, 99], // stamped in minute 0, received after it (feed delay)
  [59_990, 60_020, 98],
  [61_000, 61_000, 101],
  [121_000, 121_000, 102],
  [181_000, 181_000, 103],
];

function quote(ts: number): RecordedMessage {
  return {
    recvTs: ts,
    source: 'market-data',
    msg: {
      arg: { channel: 'BBO', sym: SYM },
      data: { bidPrice: '99.9', bidQty: '5', askPrice: '100.1', askQty: '5', ts },
    },
  };
}

describe('trade-built bars with a feed delay and a timer between the bar end and the delayed prints', () => {
  it('are the same in a lockstep paper session as in the backtest of the same recording', async () => {
    const dir = tempDir();
    const recording = join(dir, 'trades.jsonl');
    const records: RecordedMessage[] = [quote(T0 + 500)];
    for (const [ts, recvTs, price] of TRADES)
      records.push({
        recvTs: T0 + recvTs,
        source: 'market-data',
        msg: {
          arg: { channel: 'TRADE', sym: SYM },
          data: { tradeId: `t${ts}`, price: String(price), qty: '1', side: 'BUY', ts: T0 + ts },
        },
      });
    await writeRecording(recording, records);
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    const strategy = (out: string) =>
      `instruments: [${SYM}]\nstrategies:\n  - id: bt\n    use: ${PLUGIN}\n    params: { sym: ${SYM}, out: ${join(dir, out)} }\n`;
    writeFileSync(
      join(dir, 'paper.yaml'),
      `mode: paper\n${strategy('paper.log')}paper:\n  lockstep: true\n  speed: 1000000\n  source: { kind: recording, path: ${recording} }\n  startingCash: { USDT: 100000 }\nreport: { html: out/paper.html, json: out/paper.json }\nlogging: { level: warn }\nmetrics: { enabled: false }\n`,
    );
    writeFileSync(
      join(dir, 'backtest.yaml'),
      `mode: backtest\n${strategy('backtest.log')}backtest:\n  recordings: [${recording}]\n  startingCash: { USDT: 100000 }\n  latency: { fixedMs: 0, jitterMs: 0 }\n  closeAtEnd: false\nreport: { html: out/backtest.html, json: out/backtest.json }\n`,
    );
    const bt = await keelInProcess(['backtest', 'backtest.yaml', '--no-progress'], { cwd: dir });
    expect(bt.code, bt.stderr).toBe(0);
    const paper = await keelInProcess(['run', 'paper.yaml'], { cwd: dir });
    expect(paper.code, paper.stderr).toBe(0);
    const backtestLog = readFileSync(join(dir, 'backtest.log'), 'utf8').trim().split('\n');
    const paperLog = readFileSync(join(dir, 'paper.log'), 'utf8').trim().split('\n');
    const warnings = (name: string) =>
      (
        JSON.parse(readFileSync(join(dir, `out/${name}.json`), 'utf8')) as { meta: { warnings: string[] } }
      ).meta.warnings.filter((w) => w.includes('left out'));
    expect(paperLog[0]).toBe(backtestLog[0]);
    expect(paperLog.slice(0, 3)).toEqual(backtestLog.slice(0, 3));
    expect(warnings('paper')).toEqual(warnings('backtest'));
  }, 120_000);
});
