/** Where a recorded message came from: the public market-data socket or the private User Data stream. */
export type MessageSource = 'market-data' | 'private';

/** Every message source, in the order the format documents them. */
export const MESSAGE_SOURCES: readonly MessageSource[] = ['market-data', 'private'];

/**
 * One line of a recording after the header: a raw venue message as it arrived, with its local
 * receive time (epoch ms) and its source. The line on disk is exactly
 * `{"recvTs":…,"source":"…","msg":…}`.
 */
export interface RecordedMessage {
  readonly recvTs: number;
  readonly source: MessageSource;
  /** The venue's message, parsed JSON, untouched. */
  readonly msg: unknown;
}

/**
 * Turns one recorded message into events. The reader calls it for every record, so it is where
 * the wire -> model mapping plugs in (config/ wires the venue decoders; backtest/ cannot import
 * core/venue). Events must not themselves be arrays: an array means "these events".
 * @param record - the recorded message
 * @returns the event, or an array of events (a User Data frame may carry several); null to drop
 *   the record silently (heartbeats, acks, sources not wanted); an Error to report the record as
 *   malformed (with file and line) under the reader's policy
 */
export type RecordDecoder<E> = (record: RecordedMessage) => E | readonly E[] | null | Error;

/**
 * The decoder that keeps records as they are.
 * @param record - the recorded message
 * @returns the same record
 */
export function keepRecord(record: RecordedMessage): RecordedMessage {
  return record;
}
