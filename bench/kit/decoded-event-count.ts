import { readEventBatches } from '../../backtest/recording/index.ts';
import { decodeSessionRecord } from '../../config/session-decoder.ts';

/**
 * Reads a recording through the session decoder and does nothing else: the replay floor a
 * backtest of the same file is compared with.
 * @param path - the recording
 * @returns how many model events it decoded to
 */
export async function decodedEventCount(path: string): Promise<number> {
  let events = 0;
  for await (const batch of readEventBatches(path, decodeSessionRecord)) events += batch.length;
  return events;
}
