import type { z } from 'zod';
import type { RecordCodec } from '../log/record-log.ts';
import type { RoundTripTrade } from '../trades/round-trip-trade.ts';
import { algoOrderRecordSchema, denialRecordSchema } from './activity-schemas.ts';
import type { AlgoOrderRecord } from './algo-order-record.ts';
import type { DenialRecord } from './denial-record.ts';
import type { FillRecord, OrderRecord } from './owned-records.ts';
import { executionRecordSchema, orderRecordSchema, roundTripTradeSchema } from './result-schema.ts';
import { stableJsonLine, stableJsonLineWith } from './stable-json-line.ts';

/**
 * The line codecs of a result's records: a record is written exactly as it stands inside the
 * result file's arrays (stable one-line JSON, Decimals as exact strings) and read back through
 * the result file's own schema, so a spilled record, a record in `result.json` and a record read
 * back are the same thing, and the result writer copies spilled lines as they are.
 */

function codecOf<T>(schema: z.ZodType<T, unknown>, what: string): RecordCodec<T> {
  return {
    encode: (record) => stableJsonLine(record),
    decode: (line, where) => {
      let data: unknown;
      try {
        data = JSON.parse(line);
      } catch (cause) {
        throw new Error(`${where} is not JSON: ${(cause as Error).message}`, { cause });
      }
      const parsed = schema.safeParse(data);
      if (!parsed.success) {
        const issues = parsed.error.issues
          .slice(0, 5)
          .map((i) => `${[where, ...i.path].join('.')}: ${i.message}`)
          .join('; ');
        throw new Error(`${where} is not ${what}: ${issues}`);
      }
      return parsed.data;
    },
  };
}

/** Orders as result-file lines. */
export const ORDER_CODEC: RecordCodec<OrderRecord> = codecOf(orderRecordSchema, 'an order');
/** Fills as result-file lines. */
export const EXECUTION_CODEC: RecordCodec<FillRecord> = codecOf(executionRecordSchema, 'a fill');
/** Closed round-trip trades as result-file lines. */
export const ROUND_TRIP_CODEC: RecordCodec<RoundTripTrade> = codecOf(
  roundTripTradeSchema,
  'a round-trip trade',
);
/** Algo orders as result-file lines. */
export const ALGO_ORDER_CODEC: RecordCodec<AlgoOrderRecord> = codecOf(algoOrderRecordSchema, 'an algo order');
/** Denied intents as result-file lines. */
export const DENIAL_CODEC: RecordCodec<DenialRecord> = codecOf(denialRecordSchema, 'a denied intent');

/**
 * The line {@link ORDER_CODEC} or {@link EXECUTION_CODEC} writes for a venue record owned by a
 * strategy, i.e. for `withOwner(record, owner)`, without making that copy: a run writes every
 * finished order this way.
 * @param record - the venue's order or execution
 * @param owner - the strategy owning it
 * @returns the encoded line
 */
export function ownedRecordLine(record: OrderRecord | FillRecord, owner: string): string {
  return stableJsonLineWith(record, 'strategyId', owner);
}
