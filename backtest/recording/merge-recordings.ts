import { mergeByRecvTs, type ReceiveTimed } from './merge-by-recv-ts.ts';
import type { RecordDecoder } from './recorded-message.ts';
import { type RecordingReadOptions, readEventBatches } from './recording-reader.ts';

/**
 * Reads several recordings as one stream of decoded events ordered by receive time (e.g. a
 * market-data recording and a private-stream recording of the same session).
 * @param paths - the recordings; on equal receive times the one listed first goes first
 * @param decode - turns each record into an event stamped with `recvTs`
 * @param options - reader options, applied to every file
 * @returns merged event batches
 * @throws RecordingFormatError as `readEventBatches`, for whichever file meets the problem
 * @example
 * for await (const batch of mergeRecordings([md, priv], decode)) for (const e of batch) fold(e);
 */
export function mergeRecordings<E extends ReceiveTimed>(
  paths: readonly string[],
  decode: RecordDecoder<E>,
  options: RecordingReadOptions = {},
): AsyncGenerator<E[], void, undefined> {
  return mergeByRecvTs(paths.map((path) => readEventBatches(path, decode, options)));
}
