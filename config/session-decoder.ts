import { gapOfRecordMessage, type RecordedMessage } from '../backtest/recording/index.ts';
import type { KeelEvent } from '../core/model/index.ts';
import { classifyPrivateFrame, decodeMarketMessage } from '../core/venue/index.ts';

/**
 * Names {@link decodeSessionRecord} in event caches (`backtest.eventCache`): a cache made by
 * another decoder id is stale and rebuilt. Bump the version when decoding changes what it yields
 * (test/config/session-decoder-digest.test.ts fails until it is bumped).
 */
export const SESSION_DECODER_ID = 'session-decoder-v2';

/**
 * The record decoder that wires the venue's wire -> model mapping into the recording reader, so a
 * replay decodes exactly as live does. Market-data records go through the market-data decoders
 * (a malformed push comes back as an Error, which the reader reports with file and line); a gap
 * record (`keel record` lost the connection) becomes a gap event.
 * Private-stream records go through the private WebSocket's frame classifier: User Data pushes
 * become their events, replies and heartbeats are dropped.
 * @param record - one recorded venue message
 * @returns the event(s); null for control messages; the decode error of a malformed message
 */
export function decodeSessionRecord(
  record: RecordedMessage,
): KeelEvent | readonly KeelEvent[] | null | Error {
  if (record.source === 'market-data') {
    const event = decodeMarketMessage(record.msg, record.recvTs);
    // A gap record is no venue push: looked for only when the venue's decoders refuse a message.
    return event instanceof Error ? (gapOfRecordMessage(record.msg, record.recvTs) ?? event) : event;
  }
  // The private stream is low-volume: re-serialising lets it share the live frame classifier.
  const frame = classifyPrivateFrame(
    typeof record.msg === 'string' ? record.msg : JSON.stringify(record.msg),
    record.recvTs,
  );
  switch (frame.kind) {
    case 'events':
      return frame.events;
    case 'pong':
    case 'reply':
      return null;
    default:
      return new Error(frame.problem);
  }
}
