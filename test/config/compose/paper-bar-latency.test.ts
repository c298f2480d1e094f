import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { barsRecordingIn } from '../../kit/bar-recordings.ts';
import { keelChild } from '../../kit/keel-child-process.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const T0 = Date.UTC(2025, 2, 3);
const tempDir = tempDirsRemovedAfterEach('keel-paper-bar-latency-');
const LATENCY = '{ fixedMs: 10, jitterMs: 0 }';

/** 1m bars rising 0.5 % a bar, each reaching 1.5 % over its open: a 1 % take-profit fires on the bar after an entry. */
const RISING = Array.from({ length: 30 }, (_, i) => {
  const open = 100 * 1.005 ** i;
  return [open, open * 1.015, open * 0.999, open * 1.005].map((p) => Number(p.toFixed(1)));
});

type Result = { fills: { side: string; price: string; timestamp: number }[] };

/**
 * Runs the bracket strategy on the bars as a lockstep paper session and as a backtest, both with
 * a 10 ms order-entry delay, and reads both results.
 */
async function paperAndBacktest(): Promise<{ paper: Result; backtest: Result }> {
  const dir = tempDir();
  const bars = await barsRecordingIn(dir, RISING, T0, BTC);
  const strategy = `instruments: [${BTC}]\nstrategies:\n  - id: br\n    use: bracket\n    params: { sym: ${BTC}, qty: 1, trendBars: 2, takeProfit: 0.01, stopLoss: 0.02, exits: attached }\n`;
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  writeFileSync(
    join(dir, 'paper.yaml'),
    `mode: paper\n${strategy}paper:\n  lockstep: true\n  speed: 1000000\n  latency: ${LATENCY}\n  source: { kind: recording, path: ${bars} }\n  startingCash: { USDT: 100000 }\nreport: { html: out/paper.html, json: out/paper.json }\nlogging: { level: warn }\nmetrics: { enabled: false }\nshutdown: { cancelAllOrders: true }\n`,
  );
  writeFileSync(
    join(dir, 'backtest.yaml'),
    `mode: backtest\n${strategy}backtest:\n  recordings: [${bars}]\n  startingCash: { USDT: 100000 }\n  latency: ${LATENCY}\n  closeAtEnd: false\nreport: { html: out/backtest.html, json: out/backtest.json }\n`,
  );
  for (const args of [
    ['run', 'paper.yaml'],
    ['backtest', 'backtest.yaml', '--no-progress'],
  ]) {
    const run = keelChild(args, { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
  }
  const read = (name: string) => JSON.parse(readFileSync(join(dir, `out/${name}.json`), 'utf8')) as Result;
  return { paper: read('paper'), backtest: read('backtest') };
}

const lines = (r: Result) => r.fills.map((f) => `${f.side} @ ${f.price} t=${f.timestamp}`);

describe('a lockstep paper run on bars with an order-entry latency', () => {
  it('fills an entry sent on a bar close, and its attached exits, at the next bar as a backtest with that latency does', async () => {
    const { paper, backtest } = await paperAndBacktest();
    expect(backtest.fills.filter((f) => f.side === 'SELL').length).toBeGreaterThan(1);
    expect(lines(paper)).toEqual(lines(backtest));
  }, 60_000);
});
