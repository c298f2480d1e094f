import { parseConfigText } from '../../config/loader/index.ts';
import type { KeelConfig } from '../../config/schema/index.ts';

/** A parsed `keel record` config with what the record command reads beside it. */
export interface RecordConfig {
  readonly config: KeelConfig;
  readonly source: unknown;
}

/**
 * The live config `keel record` tests record a paper venue's market data with: the market maker
 * on BINANCE_PERP_BTC_USDT, the paper venue's test credentials from the environment, silent logs.
 * @param venue - the paper venue's REST and market data URLs
 * @param file - the path the config is said to be read from (errors name it)
 * @param extraYaml - sections added at the end (e.g. metrics)
 * @returns the parsed config
 * @throws Error when the config does not parse
 */
export function recordConfig(
  venue: { readonly restUrl: string; readonly marketDataWsUrl: string },
  file: string,
  extraYaml = '',
): RecordConfig {
  const parsed = parseConfigText(
    `mode: live
name: rec
venue:
  restUrl: ${venue.restUrl}
  marketDataWsUrl: ${venue.marketDataWsUrl}
  apiKey: \${KEY}
  apiSecret: \${SECRET}
instruments:
  - BINANCE_PERP_BTC_USDT
strategies:
  - id: mm
    use: market-maker
    params: { sym: BINANCE_PERP_BTC_USDT, qty: 0.001, halfSpreadTicks: 20, maxPosition: 0.01 }
logging:
  level: silent
${extraYaml}`,
    { file, env: { KEY: 'keel-paper-key', SECRET: 'keel-paper-secret' } },
  );
  if (!parsed.ok) throw new Error(JSON.stringify(parsed));
  return { config: parsed.config, source: parsed.source };
}
