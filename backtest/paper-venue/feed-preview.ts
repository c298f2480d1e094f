import type { MarketEvent } from '../../core/model/index.ts';
import type { FeedSource } from './market-feed.ts';

/**
 * The first events of a market source, read from a fresh start of it (a source restarts on each
 * call), for what a run decides before the venue releases anything: the session's start time, and
 * the fill model that fits the data (as a backtest decides from its first batch).
 * @param source - the market source
 * @param count - how many events at most
 * @param last - the preview ends after the first event this accepts (it decided what was asked)
 * @returns up to `count` events, in the source's order
 * @throws Error when the source fails to read (a bad recording)
 */
export async function previewFeed(
  source: FeedSource,
  count: number,
  last: (event: MarketEvent) => boolean = () => false,
): Promise<MarketEvent[]> {
  const iterator = source();
  const events: MarketEvent[] = [];
  try {
    while (events.length < count) {
      const next = await iterator.next();
      if (next.done) break;
      events.push(next.value.event);
      if (last(next.value.event)) break;
    }
  } finally {
    await iterator.return?.();
  }
  return events;
}
