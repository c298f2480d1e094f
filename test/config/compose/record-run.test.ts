import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { recordMarketData } from '../../../config/compose/record-run.ts';
import { parseConfigText } from '../../../config/loader/index.ts';
import { aPaperVenue, closedAfterEachTest } from '../../kit/paper-venue-builders.ts';
import { tempDir } from '../../kit/recording-files.ts';

const opened = closedAfterEachTest();

describe('keel record (live mode) against `keel venue` serving a SYNTHETIC feed', () => {
  const temp = tempDir();
  afterAll(() => temp.remove());

  it('labels the recording synthetic, as `keel run` against the same venue does (system status syntheticFeed)', async () => {
    opened.venue = await aPaperVenue({ syntheticFeed: true });
    const venue = opened.venue;
    const yaml = `mode: live
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
  level: error
`;
    const parsed = parseConfigText(yaml, {
      file: join(temp.dir, 'rec.yaml'),
      env: { KEY: 'keel-paper-key', SECRET: 'keel-paper-secret' },
    });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed));
    const out = join(temp.dir, 'rec.jsonl');
    await recordMarketData(
      {
        config: parsed.config,
        file: join(temp.dir, 'rec.yaml'),
        dir: temp.dir,
        source: parsed.source,
      } as never,
      { out, durationSec: 0.3, handleSignals: false },
    );
    const header = JSON.parse(readFileSync(out, 'utf8').split('\n')[0] as string);
    expect(header.synthetic).toBe(true);
  });
});
