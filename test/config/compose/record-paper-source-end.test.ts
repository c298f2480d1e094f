import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRecords } from '../../../backtest/recording/index.ts';
import { recordMarketData } from '../../../config/compose/record-run.ts';
import { loadValidConfig } from '../../../config/loader/index.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const newDir = tempDirsRemovedAfterEach('keel-record-source-end-');

/** A paper config on 120 s of SYNTHETIC BTC data replayed at 200 times the wall clock. */
const paperConfig = (venuePort: number) => `mode: paper
instruments: [BINANCE_PERP_BTC_USDT]
strategies:
  - id: mm
    use: market-maker
    params: { sym: BINANCE_PERP_BTC_USDT, qty: 0.01, halfSpreadTicks: 10, maxPosition: 0.05 }
paper:
  speed: 200
  venuePort: ${venuePort}
  source: { kind: synthetic, seed: 7, durationSec: 120 }
logging: { level: silent }
metrics: { enabled: false }
`;

describe('keel record of a paper config whose market source ends', () => {
  it('stops once the source is exhausted, with every frame up to its end recorded', async () => {
    const dir = newDir();
    const file = join(dir, 'paper.yaml');
    writeFileSync(file, paperConfig(0));
    const out = join(dir, 'rec.jsonl');
    // The duration is only a bound for a recording that would not stop by itself: 120 s of market
    // at speed 200 replays in some 0.6 s.
    const outcome = await recordMarketData(loadValidConfig(file), {
      out,
      durationSec: 30,
      handleSignals: false,
    });
    expect(outcome.stoppedBy).toBe('ended');
    const times: number[] = [];
    for await (const record of readRecords(out)) times.push(record.recvTs);
    expect(outcome.frames).toBeGreaterThan(100);
    // The source runs from the start to 120 s after the start's minute; the frames are stamped by
    // the venue's clock as they arrive. The last ones sit within its last 10 s of market: none of
    // them was lost at the stop.
    const end = Math.floor(Math.min(...times) / 60_000) * 60_000 + 120_000;
    expect(Math.max(...times)).toBeGreaterThan(end - 10_000);
  }, 60_000);
});
