import { type FeedSource, previewFeed } from '../../backtest/paper-venue/index.ts';
import { tradableMarketEvent } from '../../backtest/runner/index.ts';
import type { MarketEvent } from '../../core/model/index.ts';

/** How many of the source's first events decide the default fill model: a backtest's first batch. */
const PREVIEW_EVENTS = 8192;

/**
 * The first events of a paper venue's market source that decide its default fill model as a
 * backtest's first batch decides it (`defaultFillModelFor`): up to the first quote, trade or book
 * (a synthetic source stops at its first quote), at most a backtest's first batch.
 * @param feed - the market source (read from a fresh start, then left)
 * @returns the events, in the source's order
 * @throws Error when the source fails to read (a bad recording)
 */
export function fillModelPreview(feed: FeedSource): Promise<MarketEvent[]> {
  return previewFeed(feed, PREVIEW_EVENTS, tradableMarketEvent);
}
