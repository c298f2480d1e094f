/**
 * `keel sweep` on 1 and 2 worker threads: a 16-combination sma-cross grid (fast x slow) over a
 * 36-hour SYNTHETIC BTC session (generated once into the temp dir), so each backtest is long
 * enough that worker start-up (tsx registering in each thread) does not hide the scaling: with
 * the event cache a 12-hour session took 0.7 s per backtest, and the speed-up fell to 1.3x. Prints
 * wall time of each, the speed-up (target >= 1.7x on 2 cores) and the machine's load, which makes
 * the figure meaningless when above the core count. Run alone: npx tsx bench/sweep.bench.ts
 */
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SYNTHETIC_MARKETS, writeSyntheticSession } from '../backtest/synthetic/index.ts';
import { gridCombinations, parseGridAxis } from '../config/cli/index.ts';
import { runSweep } from '../config/sweep/run-sweep.ts';

const config = fileURLToPath(new URL('../config/examples/sma-cross-backtest.yaml', import.meta.url));
const session = join(tmpdir(), 'keel-sweep-bench-36h-v1.jsonl.gz');
if (!existsSync(session)) {
  await writeSyntheticSession(session, {
    seed: 7,
    startTime: Date.UTC(2025, 0, 6, 12),
    durationMs: 36 * 3_600_000,
    markets: SYNTHETIC_MARKETS.filter((m) => m.sym === 'BINANCE_PERP_BTC_USDT'),
  });
}
const sets = [`backtest.recordings=[${session}]`];
const combinations = gridCombinations([
  parseGridAxis('strategies.0.params.fast=2,3,4,5'),
  parseGridAxis('strategies.0.params.slow=8,10,12,15'),
]);

/** CPU seconds of every thread of this process (workers included). */
function cpuSeconds(): number {
  const usage = process.resourceUsage();
  return (usage.userCPUTime + usage.systemCPUTime) / 1e6;
}

async function timed(workers: number): Promise<{ ms: number; cores: number }> {
  const start = performance.now();
  const cpu = cpuSeconds();
  const rows = await runSweep({ file: config, sets, combinations, workers });
  const ms = performance.now() - start;
  if (rows.length !== combinations.length)
    throw new Error(`expected ${combinations.length} rows, got ${rows.length}`);
  return { ms, cores: (cpuSeconds() - cpu) / (ms / 1000) };
}

const first = await timed(1);
const second = await timed(2);
const one = first.ms;
const two = second.ms;
process.stdout.write(
  [
    `keel sweep, ${combinations.length} combinations (sma-cross fast x slow on a 36-hour SYNTHETIC BTC session)`,
    `  1 worker:  ${(one / 1000).toFixed(2)} s (${(one / combinations.length).toFixed(0)} ms per backtest, pool start included), ${first.cores.toFixed(2)} cores busy on average`,
    `  2 workers: ${(two / 1000).toFixed(2)} s, ${second.cores.toFixed(2)} cores busy on average (near 1 means the machine had no second core to give)`,
    `  speed-up:  ${(one / two).toFixed(2)}x (target >= 1.7x)`,
    `  machine:   ${availableParallelism()} cores, load average ${loadavg()[0]?.toFixed(1)} (a load above the core count makes the speed-up meaningless)`,
    '',
  ].join('\n'),
);
