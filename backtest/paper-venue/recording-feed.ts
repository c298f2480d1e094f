import {
  type RecordedMessage,
  RecordingDamage,
  type RecordingWarning,
  readEvents,
  warnToStderr,
} from '../recording/index.ts';
import { decodeFeedItem, type FeedItem, type FeedSource } from './market-feed.ts';

/**
 * A market-data record as a feed item: its push (sent to subscribers) and its decoded event. A
 * private-stream record is dropped: the paper venue makes its own User Data.
 */
function feedItemOfRecord(record: RecordedMessage): FeedItem | null | Error {
  return record.source === 'market-data' ? decodeFeedItem(record.msg, record.recvTs) : null;
}

/**
 * Market data from a recorded session (backtest/recording), decoded with the venue's decoders.
 * Private-stream records of the recording are skipped: the paper venue makes its own User Data.
 * A line that cannot be read or decoded is skipped and told to `onSkipped`, and the session goes
 * on: one odd frame a live run recorded does not end the paper session replaying it.
 * @param path - a `.jsonl` or `.jsonl.gz` recording
 * @param onSkipped - told each line skipped (a `RecordingDamage`'s `note` counts them); default:
 *   the first of each kind on stderr
 * @returns the source
 */
export function recordingFeed(
  path: string,
  onSkipped: (warning: RecordingWarning) => void = new RecordingDamage(warnToStderr).note,
): FeedSource {
  return () => readEvents(path, feedItemOfRecord, { onMalformed: 'skip', onWarning: onSkipped });
}
