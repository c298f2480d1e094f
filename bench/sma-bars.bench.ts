import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { klineMessage } from '../backtest/csv/index.ts';
import { RecordingWriter } from '../backtest/recording/index.ts';
import { type ProgressReporter, runBacktest } from '../backtest/runner/index.ts';
import { decodeSessionRecord, SESSION_DECODER_ID } from '../config/session-decoder.ts';
import { applyKeelV8Flags, KEEL_V8_FLAGS } from '../config/v8-tuning.ts';
import { seededRandom } from '../core/kernel/index.ts';
import { D } from '../core/model/index.ts';
import { RiskGate } from '../core/risk/index.ts';
import { smaCross } from '../strategies/sma-cross.ts';
import { anInstrument } from '../test/kit/instrument-builders.ts';
import { bestOf, timed } from './kit/cpu-timing.ts';
import { decodedEventCount } from './kit/decoded-event-count.ts';

// The V8 flags the keel command runs a backtest under (config/v8-tuning.ts).
applyKeelV8Flags();

// A 100k-bar kline backtest of an SMA crossover (fast 10, slow 30, bar fill model) through the
// full runner: recording reader + venue decoder + simulated venue + kernel + risk gate + metrics.
// Prints bars/s from the file and from the derived event cache (backtest/runner/event-cache.ts),
// next to the bare read-and-decode rate of the same file, a never-trading floor of the same path
// (so the cost per fill shows), and, in a fresh process, one cached run as a `keel backtest`
// command makes it (V8 compiling the hot code as it goes) with RSS at 25/50/75/100 % of it.
// Target: >= 500k bars/s, RSS flat. The bars are SYNTHETIC (a seeded random walk).

const BARS = 100_000;
const ROUNDS = 3;
const MIB = 2 ** 20;
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

const instrument = anInstrument(SYM);

const bareDecode = (): Promise<number> => decodedEventCount(path);

interface RunSummary {
  readonly trades: number;
  readonly fills: number;
  readonly sharpe: number | null;
  readonly maxDrawdown: number;
  readonly equityPoints: number;
}

async function backtest(
  eventCache: boolean,
  progress?: ProgressReporter,
  fraction = 0.5,
): Promise<RunSummary> {
  const result = await runBacktest({
    recordings: [path],
    decode: decodeSessionRecord,
    instruments: [instrument],
    strategies: [{ id: 'sma', strategy: smaCross, params: { sym: SYM, fast: 10, slow: 30, fraction } }],
    gate: new RiskGate(),
    startingCash: D(100_000),
    fillModel: 'bar',
    closeAtEnd: true,
    ...(eventCache ? { eventCache: { decoderId: SESSION_DECODER_ID } } : {}),
    ...(progress === undefined ? {} : { progress }),
  });
  const summary = {
    trades: result.trades.length,
    fills: result.fills.length,
    sharpe: result.metrics.sharpe,
    maxDrawdown: result.metrics.maxDrawdown,
    equityPoints: result.equityCurve.length,
  };
  // Orders, fills and trades sit in the run's temporary spill files: removed here.
  result.dispose?.();
  return summary;
}

/**
 * Child mode: one cached backtest in a fresh process, timed, RSS noted when the runner reports
 * 25, 50, 75 and 100 % done.
 */
async function probeRss(): Promise<void> {
  const marks: number[] = [];
  // Progress is reported in event time (ms replayed of the run's span).
  let span = Number.POSITIVE_INFINITY;
  let next = 0.25;
  const progress: ProgressReporter = {
    start: (spanMs) => {
      span = spanMs ?? Number.POSITIVE_INFINITY;
    },
    update: (_events, doneMs) => {
      while (next <= 1 && doneMs >= span * next) {
        marks.push(Math.round(process.memoryUsage.rss() / MIB));
        next += 0.25;
      }
    },
    stop: () => undefined,
  };
  const before = Math.round(process.memoryUsage.rss() / MIB);
  const run = await timed(() => backtest(true, progress));
  const peak = Math.round(process.resourceUsage().maxRSS / 1024);
  process.stdout.write(JSON.stringify({ before, marks, peak, cpu: run.cpu, wall: run.wall }));
}

if (!existsSync(path)) await writeSyntheticBars();
if (process.argv.includes('--rss-probe')) {
  await probeRss();
} else {
  const bare = await bestOf(ROUNDS, bareDecode);
  const plain = await bestOf(1, () => backtest(false));
  await backtest(true); // builds the event cache if it is missing or stale
  const cached = await bestOf(ROUNDS, () => backtest(true));
  // The same path with every signal sized below one lot, so it never trades: what the bars cost.
  const floor = await bestOf(ROUNDS, () => backtest(true, undefined, 1e-9));
  const summary = cached.value;
  const perCpu = (t: { cpu: number }): number => BARS / t.cpu;
  const perWall = (t: { wall: number }): number => BARS / t.wall;
  const lines = [
    `SMA crossover on ${fmt(BARS)} SYNTHETIC 1m bars (${summary.trades} trades, ${summary.fills} fills, Sharpe ${summary.sharpe?.toFixed(2) ?? 'n/a'}, max drawdown ${(summary.maxDrawdown * 100).toFixed(1)} %, ${summary.equityPoints} equity points)`,
    '  rates per CPU second (the machine is shared: CPU time is the steadier figure); wall-clock in brackets',
    `  V8 flags: ${KEEL_V8_FLAGS.join(' ')} (as the keel command; config/v8-tuning.ts)`,
    `  bare read + decode        : ${fmt(perCpu(bare))} bars/s  [${fmt(perWall(bare))}]`,
    `  backtest from the file    : ${fmt(perCpu(plain))} bars/s  [${fmt(perWall(plain))}]  (reader + decoders; this process's first run, so V8 compiles the hot code in it)`,
    `  backtest from event cache : ${fmt(perCpu(cached))} bars/s  [${fmt(perWall(cached))}]  best of ${ROUNDS} after two runs, the hot code compiled; target >= 500,000`,
    `  floor, never trading      : ${fmt(perCpu(floor))} bars/s  [${fmt(perWall(floor))}]  the same SMA signals sized below one lot (${floor.value.fills} fills)`,
    `  so each fill costs ${(((cached.cpu - floor.cpu) / summary.fills) * 1e6).toFixed(0)} us of CPU (order, risk, sim, User Data, records), the bars ${((floor.cpu / BARS) * 1e6).toFixed(2)} us each`,
  ];
  const self = fileURLToPath(import.meta.url);
  const child = spawnSync(process.execPath, ['--import', 'tsx', self, '--rss-probe'], { encoding: 'utf8' });
  if (child.status !== 0) {
    lines.push(`  fresh-process run failed (${child.stderr.trim().split('\n')[0]})`);
  } else {
    const r = JSON.parse(child.stdout) as {
      before: number;
      marks: number[];
      peak: number;
      cpu: number;
      wall: number;
    };
    lines.push(
      `  one run, fresh process    : ${fmt(perCpu(r))} bars/s  [${fmt(perWall(r))}]  from the event cache, V8 compiling as it goes (what one keel backtest run of these bars sees)`,
      `  RSS (fresh process, one cached run): ${r.before} MiB before; at 25/50/75/100 %: ${r.marks.join(' / ')} MiB; peak ${r.peak} MiB (target flat)`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
