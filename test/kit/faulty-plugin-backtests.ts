import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { reportOutputFlags } from './keel-child-process.ts';
import { type KeelOutput, keelInProcess } from './keel-in-process.ts';

/**
 * The CLI suites' plugin strategy of mistakes: watches `sym` bars of `interval` and throws in the
 * hook its `throwIn` param names.
 */
export const FAULTY_PLUGIN = resolve('test/config/fixtures/faulty-plugin.ts');

/** SYNTHETIC BTC, ETH and AAPL from 2025-01-06 14:30 to 15:00 UTC: BBO, trades and 1m klines. */
const SESSION = resolve('backtest/sessions/example-synthetic.jsonl.gz');

/** What differs between the faulty plugin's backtest configs. */
export interface FaultyPluginBacktestConfig {
  /** The config's `name`, and its file's: `<dir>/<name>.yaml`. */
  readonly name: string;
  /** The `instruments` line's value, as YAML. */
  readonly instruments: string;
  /** The id the plugin runs under. */
  readonly strategyId: string;
}

/**
 * Writes a backtest config running {@link FAULTY_PLUGIN} alone (params `sym: BINANCE_PERP_BTC_USDT`)
 * over the SYNTHETIC example session, 100 000 USDT, no event cache.
 * @param dir - the folder of the config and of every run's result and report
 * @param config - its name, instruments and strategy id
 * @returns a function that runs `keel backtest` on it in this process without progress output, with more
 *   command-line `args` (e.g. `--set`, `--from`), writing `<dir>/<runName>-result.json` and
 *   `<dir>/<runName>-report.html`
 */
export function faultyPluginBacktestIn(
  dir: string,
  config: FaultyPluginBacktestConfig,
): (runName: string, args: readonly string[]) => Promise<KeelOutput> {
  const file = join(dir, `${config.name}.yaml`);
  writeFileSync(
    file,
    `mode: backtest
name: ${config.name}
instruments: ${config.instruments}
strategies:
  - id: ${config.strategyId}
    use: ${FAULTY_PLUGIN}
    params: { sym: BINANCE_PERP_BTC_USDT }
backtest:
  recordings: [${SESSION}]
  startingCash: { USDT: 100000 }
  eventCache: false
`,
  );
  return (runName, args) =>
    keelInProcess(['backtest', file, '--no-progress', ...args, ...reportOutputFlags(dir, runName)]);
}

/**
 * Runs `keel run`, in this process, on a 2-second lockstep paper session of {@link FAULTY_PLUGIN} alone (id `bad`,
 * on BINANCE_PERP_BTC_USDT) over the SYNTHETIC feed, seed 1.
 * @param dir - the folder of the config (`<dir>/<name>.yaml`), result and report (`<dir>/<name>-result.json`)
 * @param name - the config's and the run's name
 * @param params - the plugin's params as a YAML flow mapping, e.g. `{ sym: BINANCE_PERP_BTC_USDT, throwIn: onStart }`
 * @returns what the run printed, and its exit code
 */
export function faultyPluginPaperRunIn(dir: string, name: string, params: string): Promise<KeelOutput> {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    `mode: paper
name: ${name}
instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - id: bad
    use: ${FAULTY_PLUGIN}
    params: ${params}
paper:
  lockstep: true
  durationSec: 2
  source: { kind: synthetic, seed: 1 }
`,
  );
  return keelInProcess(['run', file, ...reportOutputFlags(dir, name)]);
}
