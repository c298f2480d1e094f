import {
  type RecordedMessage,
  RecordingDamage,
  type RecordingWarning,
  readEventBatches,
  refusingUnreadable,
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
 * on: one odd frame a live run recorded does not end the paper session replaying it. A recording
 * that gives no market data while some of its lines are malformed (not a Keel recording) fails
 * the source at its end with an `UnreadableRecordingError`, as a backtest of it does.
 * @param path - a `.jsonl` or `.jsonl.gz` recording
 * @param onSkipped - told each line skipped (a `RecordingDamage`'s `note` counts them); default:
 *   the first of each kind on stderr
 * @returns the source
 */
export function recordingFeed(
  path: string,
  onSkipped: (warning: RecordingWarning) => void = new RecordingDamage(warnToStderr).note,
): FeedSource {
  return () => feedItemsOf(path, onSkipped);
}

/** One read of the recording: its own tally of malformed lines decides whether it is refused. */
async function* feedItemsOf(
  path: string,
  onSkipped: (warning: RecordingWarning) => void,
): AsyncGenerator<FeedItem, void, undefined> {
  const damage = new RecordingDamage();
  const batches = readEventBatches(path, feedItemOfRecord, {
    onMalformed: 'skip',
    onWarning: (warning) => {
      damage.note(warning);
      onSkipped(warning);
    },
  });
  for await (const batch of refusingUnreadable(path, batches, damage)) yield* batch;
}
