import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { formatConfigProblem, type LoadedConfig, loadConfig } from '../../config/loader/index.ts';

/** The spot instrument the buy-once paper sessions trade. */
export const BUY_ONCE_SYM = 'OKX_SPOT_ETH_USDT';

/** What a buy-once paper session's config sets besides its strategy and synthetic source. */
export interface BuyOncePaperSetup {
  /** How long the lockstep session runs. */
  readonly durationSec: number;
  /** `paper.startingCash` as YAML; default `{ USDT: 100000 }`. */
  readonly startingCash?: string;
  /** `logging.level`. */
  readonly logLevel: string;
  /** Where the session records, when it does. */
  readonly recording?: string;
  /** Where the HTML report goes; default `report.html` in the folder. */
  readonly html?: string;
}

/**
 * Writes and loads `paper.yaml` in `dir`: a lockstep paper session on synthetic data (seed 1) in
 * which strategy `buy` (the buy-once fixture) buys 0.01 of {@link BUY_ONCE_SYM} on its first
 * quote, its result written to `result.json` in `dir`.
 * @param dir - a temporary folder
 * @param setup - duration, starting cash, log level, recording and report paths
 * @returns the loaded config
 * @throws Error with the config's problems when it does not load
 */
export function buyOncePaperConfig(dir: string, setup: BuyOncePaperSetup): LoadedConfig {
  const file = join(dir, 'paper.yaml');
  const plugin = resolve('test/config/fixtures/buy-once-plugin.ts');
  writeFileSync(
    file,
    `mode: paper
instruments: [${BUY_ONCE_SYM}]
strategies:
  - { id: buy, use: ${JSON.stringify(plugin)}, params: { sym: ${BUY_ONCE_SYM}, qty: 0.01 } }
paper:
  lockstep: true
  durationSec: ${setup.durationSec}
  source: { kind: synthetic, seed: 1 }
  startingCash: ${setup.startingCash ?? '{ USDT: 100000 }'}
logging: { level: ${setup.logLevel} }
${setup.recording === undefined ? '' : `recording: { path: ${JSON.stringify(setup.recording)} }\n`}report: { json: ${JSON.stringify(join(dir, 'result.json'))}, html: ${JSON.stringify(setup.html ?? join(dir, 'report.html'))} }
`,
  );
  const loaded = loadConfig(file);
  if (!loaded.ok) throw new Error(loaded.problems.map(formatConfigProblem).join('\n'));
  return loaded;
}
