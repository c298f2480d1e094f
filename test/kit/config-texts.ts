/**
 * Small config texts for loader and CLI tests. Line and column numbers in tests are counted
 * by hand from these texts: keep every line where it is, or update the tests with it.
 */

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
