import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEventBatches } from '../../../backtest/recording/index.ts';
import { EXAMPLE_SESSION_OPTIONS, writeSyntheticSession } from '../../../backtest/synthetic/index.ts';
import type { MarketEvent } from '../../../core/model/index.ts';
import { decodeMarketMessage, MarketDataDecodeError } from '../../../core/venue/index.ts';
import { tempDir } from '../../kit/recording-files.ts';

// test/ may import both sides: this proves the generator writes exactly the venue's wire shapes.
let dir: { dir: string; remove: () => void };
beforeAll(() => {
  dir = tempDir();
});
afterAll(() => dir.remove());

describe('synthetic sessions through the venue decoders', () => {
  it('decode without a single error into quotes, trades and bars of the three instruments', async () => {
    const path = join(dir.dir, 's.jsonl.gz');
    await writeSyntheticSession(path, { ...EXAMPLE_SESSION_OPTIONS, durationMs: 3 * 60_000 });
    const errors: string[] = [];
    const kinds = new Map<string, number>();
    const decode = (r: { msg: unknown; recvTs: number }): MarketEvent | null | Error => {
      const event = decodeMarketMessage(r.msg, r.recvTs);
      if (event instanceof MarketDataDecodeError) errors.push(event.message);
      return event;
    };
    for await (const batch of readEventBatches(path, decode)) {
      for (const e of batch) kinds.set(`${e.sym} ${e.kind}`, (kinds.get(`${e.sym} ${e.kind}`) ?? 0) + 1);
    }
    expect(errors).toEqual([]);
    for (const sym of ['BINANCE_PERP_BTC_USDT', 'OKX_SPOT_ETH_USDT', 'US_EQUITY_AAPL']) {
      expect(kinds.get(`${sym} quote`)).toBeGreaterThan(100);
      expect(kinds.get(`${sym} trade`)).toBeGreaterThan(10);
      expect(kinds.get(`${sym} bar`)).toBe(3);
    }
  });
});
