import { describe, expect, it } from 'vitest';
import {
  cleartextVenueUrlWarnings,
  formatConfigProblem,
  type LoadedConfig,
  parseConfigText,
} from '../../../config/loader/index.ts';
import { LIVE_ENV, LIVE_YAML, replaceLine } from '../../kit/config-texts.ts';

function loaded(text: string): LoadedConfig {
  const result = parseConfigText(text, { file: 'live.yaml', env: LIVE_ENV });
  if (!result.ok) throw new Error(result.problems.map(formatConfigProblem).join('\n'));
  return { config: result.config, source: result.source, file: '/x/live.yaml', dir: '/x' };
}

const withUrls = (lines: string): string => replaceLine(LIVE_YAML, '  restUrl: https://venue.test', lines);

describe('live venue URLs in clear text', () => {
  it('are warned of when another machine is at the other end, at the line that wrote them', () => {
    expect(
      cleartextVenueUrlWarnings(
        loaded(
          withUrls(
            '  restUrl: http://venue.test\n  marketDataWsUrl: ws://md.venue.test/marketdata/v2/public',
          ),
        ),
      ),
    ).toEqual([
      'venue.restUrl is http:// to venue.test, not https://: the API key, request signatures, orders and account data cross the network in clear text (live.yaml:3:12)',
      'venue.marketDataWsUrl is ws:// to md.venue.test, not wss://: the API key, request signatures, orders and account data cross the network in clear text (live.yaml:4:20)',
    ]);
  });

  it('are not warned of on this machine (keel venue, a local proxy) or under TLS', () => {
    for (const url of [
      'http://127.0.0.1:8080',
      'http://localhost:8080',
      'http://[::1]:8080',
      'https://venue.test',
    ])
      expect(cleartextVenueUrlWarnings(loaded(withUrls(`  restUrl: ${url}`)))).toEqual([]);
  });

  it('are not warned of in a paper config, whose embedded venue is on loopback', () => {
    const paper = `mode: paper\nvenue:\n  restUrl: http://venue.test\n  apiKey: \${T_KEY}\n  apiSecret: \${T_SECRET}\ninstruments: [BINANCE_PERP_BTC_USDT]\nstrategies:\n  - { id: mm, use: market-maker }\npaper: { durationSec: 3 }\n`;
    expect(cleartextVenueUrlWarnings(loaded(paper))).toEqual([]);
  });
});
