import { readRecords } from '../recording/index.ts';
import { type FeedSource, feedItemOf } from './market-feed.ts';

/**
 * Market data from a recorded session (backtest/recording), decoded with the venue's decoders.
 * Private-stream records of the recording are skipped: the paper venue makes its own User Data.
 * @param path - a `.jsonl` or `.jsonl.gz` recording
 * @returns the source
 */
export function recordingFeed(path: string): FeedSource {
  return async function* () {
    for await (const record of readRecords(path)) {
      if (record.source !== 'market-data') continue;
      const item = feedItemOf(record.msg, record.recvTs);
      if (item) yield item;
    }
  };
}
