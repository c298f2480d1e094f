import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { klineMessage } from '../backtest/csv/index.ts';
import { RecordingWriter, readEventBatches } from '../backtest/recording/index.ts';
import { runBacktest } from '../backtest/runner/index.ts';
import { decodeSessionRecord } from '../config/session-decoder.ts';
import { seededRandom } from '../core/kernel/index.ts';
import { D, parseSym } from '../core/model/index.ts';
import { RiskGate } from '../core/risk/index.ts';
import { smaCross } from '../strategies/sma-cross.ts';

// A 100k-bar kline backtest of an SMA crossover (fast 10, slow 30, bar fill model) through the
// full runner: recording reader + venue decoder + simulated venue + kernel + risk gate + metrics.
// Prints bars/s next to the bare read-and-decode rate of the same file, and peak RSS.
// Target: >= 500k bars/s. The bars are SYNTHETIC (a seeded random walk), not market data.

const BARS = 100_000;
const ROUNDS = 2;
const SYM = 'BINANCE_PERP_BTC_USDT';
const path = join(tmpdir(), `keel-sma-bench-v1-${BARS}.jsonl`);
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

async function writeSyntheticBars(): Promise<void> {
  const random = seededRandom(42);
  const start = Date.UTC(2024, 0, 1);
  const writer = await RecordingWriter.open(path, {
    venue: 'synthetic',
    symbols: [SYM],
    startTime: start,
    synthetic: true,
    description: 'SYNTHETIC 1m bars: seeded random walk for the SMA benchmark. Not real prices.',
  });
  let price = 40_000;
  for (let i = 0; i < BARS; i++) {
    const open = price;
    price = Math.max(1000, price * (1 + (random.next() - 0.5) * 0.004));
    const close = Math.round(price * 10) / 10;
    const high = Math.max(open, close) + Math.round(random.next() * 200) / 10;
    const low = Math.min(open, close) - Math.round(random.next() * 200) / 10;
    const bar = {
      openTime: start + i * 60_000,
      open: open.toFixed(1),
      high: high.toFixed(1),
      low: low.toFixed(1),
      close: close.toFixed(1),
      volume: (random.next() * 10).toFixed(3),
      line: i + 2,
    };
    const msg = klineMessage(SYM, '1m', bar);
    writer.append(msg.data.ts, 'market-data', msg);
    price = close;
  }
  writer.close();
}

const instrument = {
  sym: SYM,
  id: parseSym(SYM),
  state: 'TRADING' as const,
  pricePrecision: 1,
  qtyPrecision: 3,
  tickSize: D('0.1'),
  lotSize: D('0.001'),
  minSize: D('0.001'),
  minNotional: D('5'),
  maxLimitSize: D('1000'),
  maxMarketSize: D('100'),
  maxNumOrders: 200,
  contractSize: D('1'),
  defaultLeverage: D('10'),
  liquidationFee: D('0.005'),
  settleAsset: 'USDT',
  fees: { maker: D('0.0002'), taker: D('0.0005'), markup: D('0'), fixedPerFill: D('0') },
};

async function bareDecode(): Promise<number> {
  let n = 0;
  for await (const batch of readEventBatches(path, decodeSessionRecord)) n += batch.length;
  return n;
}

async function backtest(): Promise<{ trades: number; fills: number; sharpe: number | null }> {
  const result = await runBacktest({
    recordings: [path],
    decode: decodeSessionRecord,
    instruments: [instrument],
    strategies: [{ id: 'sma', strategy: smaCross, params: { sym: SYM, fast: 10, slow: 30, fraction: 0.5 } }],
    gate: new RiskGate(),
    startingCash: D(100_000),
    fillModel: 'bar',
    closeAtEnd: true,
  });
  return { trades: result.trades.length, fills: result.fills.length, sharpe: result.metrics.sharpe };
}

if (!existsSync(path)) await writeSyntheticBars();
let bestBare = 0;
let bestRun = 0;
let bestRunCpu = 0;
let summary = { trades: 0, fills: 0, sharpe: null as number | null };
for (let round = 0; round < ROUNDS; round++) {
  let t = performance.now();
  const n = await bareDecode();
  bestBare = Math.max(bestBare, n / ((performance.now() - t) / 1000));
  t = performance.now();
  const cpu = process.cpuUsage();
  summary = await backtest();
  bestRun = Math.max(bestRun, BARS / ((performance.now() - t) / 1000));
  const used = process.cpuUsage(cpu);
  bestRunCpu = Math.max(bestRunCpu, BARS / ((used.user + used.system) / 1e6));
}
// maxRSS is in KiB.
const rssMiB = process.resourceUsage().maxRSS / 1024;
process.stdout.write(
  [
    `SMA crossover on ${fmt(BARS)} SYNTHETIC 1m bars (${summary.trades} trades, ${summary.fills} fills, Sharpe ${summary.sharpe?.toFixed(2) ?? 'n/a'})`,
    `  bare read + decode : ${fmt(bestBare)} bars/s`,
    `  full backtest      : ${fmt(bestRun)} bars/s wall (${((bestRun / bestBare) * 100).toFixed(0)} % of bare; target >= 500,000)`,
    `                       ${fmt(bestRunCpu)} bars/s per CPU second (the machine is shared: CPU time is the steadier figure)`,
    `  peak RSS           : ${rssMiB.toFixed(0)} MiB (whole process, after ${ROUNDS} rounds of both)`,
    '',
  ].join('\n'),
);
