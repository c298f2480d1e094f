import { describe, expect, it } from 'vitest';
import { listFeed, previewFeed } from '../../../backtest/paper-venue/index.ts';
import { SCRIPTED_PUSHES, T0 } from '../../kit/paper-venue-builders.ts';

describe('the preview of a paper venue source', () => {
  it('reads the first events from a fresh start, up to a count or the first event that decides', async () => {
    const feed = listFeed(SCRIPTED_PUSHES);
    expect((await previewFeed(feed, 2)).map((e) => e.recvTs)).toEqual([T0, T0 + 1]);
    const upToAapl = await previewFeed(feed, 10, (e) => e.sym === 'US_EQUITY_AAPL');
    expect(upToAapl.map((e) => e.sym)).toEqual(['BINANCE_PERP_BTC_USDT', 'US_EQUITY_AAPL']);
    expect(await previewFeed(feed, 10)).toHaveLength(SCRIPTED_PUSHES.length);
  });
});
