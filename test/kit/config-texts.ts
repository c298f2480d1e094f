/**
 * Small config texts for loader and CLI tests. Line and column numbers in tests are counted
 * by hand from these texts: keep every line where it is, or update the tests with it.
 */

import { type ConfigParseResult, formatConfigProblem, parseConfigText } from '../../config/loader/index.ts';
import type { KeelConfig } from '../../config/schema/index.ts';

/** A valid backtest config, 14 lines. */
export const BACKTEST_YAML = `mode: backtest
instruments:
  - BINANCE_PERP_BTC_USDT
strategies:
  - id: sma
    use: sma-cross
    params:
      fast: 10
    risk:
      maxPositionQty: 0.5
backtest:
  recordings: [a.jsonl]
  startingCash: { USDT: 1000 }
  fillModel: touch
`;

/** A valid live config whose credentials come from T_KEY and T_SECRET, 8 lines. */
export const LIVE_YAML = `mode: live
venue:
  restUrl: https://venue.test
  apiKey: \${T_KEY}
  apiSecret: \${T_SECRET}
instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - { id: mm, use: market-maker }
`;

/** Credentials for {@link LIVE_YAML}: distinctive, so a test can search any output for them. */
export const LIVE_ENV = { T_KEY: 'key-9f8e7d6c5b4a', T_SECRET: 'secret-0a1b2c3d4e5f' } as const;

/**
 * Replaces one exact line of a config text.
 * @param text - the config text
 * @param line - the whole line to replace, without its newline
 * @param replacement - the new line(s); '' removes the line
 * @returns the changed text
 * @throws Error when the line is not in the text, so a fixture edit cannot go unnoticed
 */
export function replaceLine(text: string, line: string, replacement: string): string {
  const lines = text.split('\n');
  const at = lines.indexOf(line);
  if (at < 0) throw new Error(`line ${JSON.stringify(line)} is not in the fixture`);
  if (replacement === '') lines.splice(at, 1);
  else lines[at] = replacement;
  return lines.join('\n');
}

/** {@link LIVE_YAML}'s last venue line: a line put after it lands in the venue section, as line 6. */
const LIVE_API_SECRET_LINE = `  apiSecret: \${T_SECRET}`;

/**
 * {@link LIVE_YAML} with one more line in its venue section (line 6), or as it is.
 * @param venueLine - the line, indented as a venue key (e.g. `  wsOpenTimeoutMs: 3000`)
 * @returns the config text
 */
export function liveYamlWith(venueLine?: string): string {
  return venueLine === undefined
    ? LIVE_YAML
    : replaceLine(LIVE_YAML, LIVE_API_SECRET_LINE, `${LIVE_API_SECRET_LINE}\n${venueLine}`);
}

/**
 * Parses a live config text as `live.yaml` with {@link LIVE_ENV}.
 * @param text - the config text
 * @returns the parse result
 */
export function parseLiveYaml(text: string): ConfigParseResult {
  return parseConfigText(text, { file: 'live.yaml', env: LIVE_ENV, overrides: [] });
}

/**
 * The validated config of {@link liveYamlWith}.
 * @param venueLine - the extra venue line, if any
 * @returns the config
 * @throws Error naming the problems when it does not validate
 */
export function liveConfigWith(venueLine?: string): KeelConfig {
  const result = parseLiveYaml(liveYamlWith(venueLine));
  if (!result.ok) throw new Error(result.problems.map(formatConfigProblem).join('\n'));
  return result.config;
}
