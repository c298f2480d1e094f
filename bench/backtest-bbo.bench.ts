import { spawnSync } from 'node:child_process';
import { existsSync, renameSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { eventCachePaths, runBacktest } from '../backtest/runner/index.ts';
import { SYNTHETIC_BTC_PERP, SYNTHETIC_MARKETS, writeSyntheticSession } from '../backtest/synthetic/index.ts';
import { decodeSessionRecord, SESSION_DECODER_ID } from '../config/session-decoder.ts';
import { applyKeelV8Flags, KEEL_V8_FLAGS } from '../config/v8-tuning.ts';
import type { IntentGate } from '../core/kernel/index.ts';
import { D } from '../core/model/index.ts';
import { RiskGate } from '../core/risk/index.ts';
import { marketMaker } from '../strategies/market-maker.ts';
import { bareJsonLoop } from './kit/bare-json-loop.ts';
import { timed } from './kit/cpu-timing.ts';
import { decodedEventCount } from './kit/decoded-event-count.ts';

// The V8 flags the keel command runs a backtest under (config/v8-tuning.ts).
applyKeelV8Flags();

// A 1M-message SYNTHETIC BBO session (BTC perpetual: quotes, trades at or inside the quote and
// 1m klines from the seeded generator, not market data) backtested with the market maker through
// the full path: recording reader + venue decoders + kernel + risk gate + simulated venue (queue
// fill model, default latency) + metrics, from the file and from the derived event cache
// (backtest/runner/event-cache.ts). Prints events/s next to the bare read-and-parse rate of
// the same file (a manual line splitter and JSON.parse, as in replay.bench.ts) as a ratio
// (target >= 50 %), and RSS at 25/50/75/100 % of the run, which goes in a fresh process (target:
// flat). One backtest per invocation (it is the slow part): the first builds the event cache.
//
// Quoting parameters: the SYNTHETIC BTC perpetual has a 0.1 tick on a ~95,000 price, a 1-3 tick
// spread, and a mid that moves a median 7 ticks (90th percentile 50) between two BBO updates. A
// quote 2 ticks from the mid, requoted on every 1-tick move, is then modified on nearly every
// update and filled on 38.6 % of all events, paying two maker fees per 0.4 USD of spread: no
// market maker quotes so. The default quotes 50 ticks (5 USD, ~0.5 bps) from the mid and requotes
// on a 10-tick move, which fills on ~7 % of events. `--tight` runs the old stress parameters
// (halfSpreadTicks 2, requoteTicks 1) for comparison with earlier figures.
//
// A second run quotes far from the market and never requotes (two resting orders for the whole
// session): the same path with no order flow, so the two figures split the cost into the
// per-event floor (reader + kernel + risk + sim + metrics) and the order flow (intents counted
// by kind through the risk gate, fills).

const MESSAGES = 1_000_000;
const SEED = 21;
const SYM = SYNTHETIC_BTC_PERP.sym;
const MIB = 2 ** 20;
const path = join(tmpdir(), `keel-bbo-bench-v1-seed${SEED}-${MESSAGES}.jsonl`);
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
const TIGHT = process.argv.includes('--tight');
const QUIET = process.argv.includes('--quiet');
const QUOTING = QUIET
  ? { qty: 0.01, halfSpreadTicks: 20_000, requoteTicks: 1_000_000, maxPosition: 0.05 }
  : TIGHT
    ? { qty: 0.01, halfSpreadTicks: 2, requoteTicks: 1, maxPosition: 0.05 }
    : { qty: 0.01, halfSpreadTicks: 50, requoteTicks: 10, maxPosition: 0.05 };

const bareLoop = (): Promise<number> => bareJsonLoop(path);

const replayOnly = (): Promise<number> => decodedEventCount(path);

interface RunSummary {
  readonly fills: number;
  readonly trades: number;
  readonly fees: string;
  readonly equityPoints: number;
  /** Intents the risk gate saw, by kind. */
  readonly intents: Record<string, number>;
}

/**
 * The risk gate, counting the intents it evaluates by kind; it tells the kernel whether it watches
 * equity as the gate does, so the run values equity per fill only when a plain gate would.
 */
function countingGate(counts: Record<string, number>): IntentGate {
  const gate = new RiskGate();
  return {
    evaluate: (intent, view) => {
      counts[intent.intent.kind] = (counts[intent.intent.kind] ?? 0) + 1;
      return gate.evaluate(intent, view);
    },
    observeEquity: (now, equity) => gate.observeEquity(now, equity),
    watchesEquity: () => gate.watchesEquity(),
  };
}

async function backtest(eventCache: boolean): Promise<RunSummary> {
  const intents: Record<string, number> = {};
  const result = await runBacktest({
    recordings: [path],
    decode: decodeSessionRecord,
    instruments: [SYNTHETIC_BTC_PERP],
    strategies: [
      {
        id: 'mm',
        strategy: marketMaker,
        params: { sym: SYM, ...QUOTING },
      },
    ],
    gate: countingGate(intents),
    startingCash: D(100_000),
    fillModel: 'queue',
    closeAtEnd: true,
    ...(eventCache ? { eventCache: { decoderId: SESSION_DECODER_ID } } : {}),
  });
  const summary = {
    fills: result.fills.length,
    trades: result.trades.length,
    fees: result.metrics.feesPaid.toFixed(2),
    equityPoints: result.equityCurve.length,
    intents,
  };
  // Orders, fills and trades sit in the run's temporary spill files: removed here.
  result.dispose?.();
  return summary;
}

/**
 * Child mode (a fresh process, so its memory is the backtest's alone): one backtest, from the
 * event cache when it is valid (else from the file, building it), timed, with RSS sampled every
 * 100 ms of wall time (the run yields to the event loop between batches) and read off at 25, 50,
 * 75 and 100 % of the run's duration. Prints the figures as JSON.
 */
async function probe(): Promise<void> {
  const cached = existsSync(eventCachePaths(path).meta);
  const before = process.memoryUsage.rss();
  const samples: number[] = [];
  // The heap left after each full GC is what the run keeps alive; RSS also holds the garbage V8
  // lets pile up between full GCs (its heap grows to a few times the live size under a high
  // allocation rate), so the two are shown side by side.
  const live: number[] = [];
  const gcs = new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if ((entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)
        live.push(process.memoryUsage().heapUsed);
  });
  gcs.observe({ entryTypes: ['gc'] });
  const timer = setInterval(() => samples.push(process.memoryUsage.rss()), 100);
  const run = await timed(() => backtest(true));
  clearInterval(timer);
  gcs.disconnect();
  samples.push(process.memoryUsage.rss());
  const pick = (series: readonly number[], q: number): number =>
    Math.round((series[Math.min(series.length - 1, Math.ceil(q * series.length) - 1)] ?? 0) / MIB);
  const at = (q: number): number => pick(samples, q);
  process.stdout.write(
    JSON.stringify({
      cached,
      wall: run.wall,
      cpu: run.cpu,
      summary: run.value,
      before: Math.round(before / MIB),
      marks: [0.25, 0.5, 0.75, 1].map(at),
      liveMarks: [0.25, 0.5, 0.75, 1].map((q) => pick(live, q)),
      peak: Math.round(process.resourceUsage().maxRSS / 1024),
    }),
  );
}

interface ProbeResult {
  readonly cached: boolean;
  readonly wall: number;
  readonly cpu: number;
  readonly summary: RunSummary;
  readonly before: number;
  readonly marks: number[];
  /** Heap in use right after full GCs at 25/50/75/100 % of them, MiB. */
  readonly liveMarks: number[];
  readonly peak: number;
}

if (!existsSync(path)) {
  const started = performance.now();
  const partial = `${path}.partial`;
  await writeSyntheticSession(partial, {
    seed: SEED,
    startTime: Date.UTC(2024, 0, 1),
    maxMessages: MESSAGES,
    markets: SYNTHETIC_MARKETS.filter((m) => m.sym === SYM),
  });
  renameSync(partial, path);
  console.log(`generated ${path} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

if (process.argv.includes('--probe')) {
  await probe();
} else {
  const mb = statSync(path).size / 1e6;
  const bare = await timed(bareLoop);
  const replay = await timed(replayOnly);
  const perCpu = (n: number, t: { cpu: number }): number => n / t.cpu;
  const events = replay.value;
  console.log(`session      ${path} (${mb.toFixed(1)} MB, ${fmt(bare.value)} lines incl. header, SYNTHETIC)`);
  console.log('             rates per CPU second (the machine is shared); wall-clock rate in brackets');
  console.log(`V8 flags     ${KEEL_V8_FLAGS.join(' ')} (as the keel command; config/v8-tuning.ts)`);
  console.log(
    `bare loop    ${fmt(perCpu(bare.value, bare))} lines/s   [${fmt(bare.value / bare.wall)}]  read + split + JSON.parse`,
  );
  console.log(
    `replay       ${fmt(perCpu(events, replay))} events/s  [${fmt(events / replay.wall)}]  reader + venue decoders`,
  );
  console.log(
    `quoting      ${JSON.stringify(QUOTING)}${TIGHT ? ' (--tight: stress parameters, far tighter than the data warrants)' : ' (scaled to the data; --tight for the old stress parameters)'}`,
  );
  const self = fileURLToPath(import.meta.url);
  const probeRun = (args: readonly string[]): ProbeResult | string => {
    const child = spawnSync(process.execPath, ['--import', 'tsx', self, '--probe', ...args], {
      encoding: 'utf8',
    });
    return child.status === 0
      ? (JSON.parse(child.stdout) as ProbeResult)
      : (child.stderr.trim().split('\n')[0] ?? '');
  };
  const flow = (r: ProbeResult): string =>
    Object.entries(r.summary.intents)
      .map(([kind, n]) => `${kind} ${(n / events).toFixed(3)}`)
      .join(', ');
  const r = probeRun(TIGHT ? ['--tight'] : []);
  if (typeof r === 'string') {
    console.log(`backtest     failed (${r})`);
    process.exitCode = 1;
  } else {
    const source = r.cached
      ? 'from the event cache'
      : 'from the file, building the event cache (run again for the cached figure)';
    console.log(
      `backtest     ${fmt(perCpu(events, r))} events/s  [${fmt(events / r.wall)}]  ${source}: market maker, kernel + risk + sim + metrics`,
    );
    console.log(
      `             ${fmt(r.summary.fills)} fills (${((r.summary.fills / events) * 100).toFixed(1)} % of events), ${fmt(r.summary.trades)} round trips, fees ${r.summary.fees} USDT, ${r.summary.equityPoints} equity points`,
    );
    console.log(`             intents per event: ${flow(r)}`);
    const ratio = (perCpu(events, r) / perCpu(bare.value, bare)) * 100;
    console.log(`ratio        ${ratio.toFixed(1)} % of the bare loop, CPU time (target >= 50 %)`);
    console.log(
      `RSS          ${r.before} MiB before the run; at 25/50/75/100 % of it: ${r.marks.join(' / ')} MiB; peak ${r.peak} MiB (fresh process, target flat)`,
    );
    console.log(
      `live heap    after full GCs at 25/50/75/100 % of them: ${r.liveMarks.join(' / ')} MiB (what the run keeps alive; RSS adds V8's room for garbage)`,
    );
    const quiet = probeRun(['--quiet']);
    if (typeof quiet === 'string') {
      console.log(`floor        failed (${quiet})`);
      process.exitCode = 1;
    } else {
      const floorRatio = (perCpu(events, quiet) / perCpu(bare.value, bare)) * 100;
      console.log(
        `floor        ${fmt(perCpu(events, quiet))} events/s  [${fmt(events / quiet.wall)}]  ${floorRatio.toFixed(1)} % of the bare loop: the same path quoting far away, never requoting (${flow(quiet)})`,
      );
      const perEvent = (t: { cpu: number }): number => (t.cpu / events) * 1e6;
      console.log(
        `             order flow costs ${(perEvent(r) - perEvent(quiet)).toFixed(1)} of the ${perEvent(r).toFixed(1)} us per event (floor ${perEvent(quiet).toFixed(1)} us)`,
      );
    }
  }
}
