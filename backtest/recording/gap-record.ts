import type { GapEvent } from '../../core/model/index.ts';

/** The message of a gap record: Keel's own, under a key no venue message has. */
export interface GapRecordMessage {
  readonly keelGap: {
    readonly sym: string;
    readonly fromTs: number;
    readonly ts: number;
    readonly reason: string;
  };
}

/**
 * The message a recorder writes, as a `market-data` record, when its connection dropped and came
 * back: market data between `fromTs` and `ts` was missed, so a replay can tell the hole from a
 * quiet market. Keel's choice of format (the venue has no such message).
 * @param gap - the gap the market-data client reported after its reconnect
 * @returns the record's message
 * @example
 * writer.append(clock(), 'market-data', gapRecordMessage(gap));
 */
export function gapRecordMessage(gap: GapEvent): GapRecordMessage {
  return { keelGap: { sym: gap.sym, fromTs: gap.fromTs, ts: gap.ts, reason: gap.reason } };
}

/**
 * The gap a recorded `market-data` message stands for, when it is a gap record.
 * @param msg - the record's message
 * @param recvTs - the record's receive time
 * @returns the gap event; undefined for any other message, or a gap record with a wrong field
 */
export function gapOfRecordMessage(msg: unknown, recvTs: number): GapEvent | undefined {
  if (typeof msg !== 'object' || msg === null) return undefined;
  const gap = (msg as { keelGap?: unknown }).keelGap;
  if (typeof gap !== 'object' || gap === null) return undefined;
  const { sym, fromTs, ts, reason } = gap as Record<string, unknown>;
  if (typeof sym !== 'string' || typeof reason !== 'string') return undefined;
  if (typeof fromTs !== 'number' || typeof ts !== 'number' || !(fromTs <= ts)) return undefined;
  return { kind: 'gap', sym, ts, recvTs, fromTs, reason };
}
