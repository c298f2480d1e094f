import type { RecordedMessage } from '../backtest/recording/index.ts';
import type { MarketEvent } from '../core/model/index.ts';
import { decodeMarketMessage } from '../core/venue/index.ts';

/**
 * The record decoder that wires the venue's wire -> model mapping into the recording reader:
 * market-data records go through the venue's market-data decoders (a malformed push comes back as
 * an Error, which the reader reports with file and line). Private-stream records are dropped until
 * the User Data decoders are wired here.
 * @param record - one recorded venue message
 * @returns the market event, null for control messages and private records, or the decode error
 */
export function decodeSessionRecord(record: RecordedMessage): MarketEvent | null | Error {
  if (record.source !== 'market-data') return null;
  return decodeMarketMessage(record.msg, record.recvTs);
}
