import type { RecordLog } from '../log/record-log.ts';

/**
 * Whether a value is a record log (a non-array iterable object): stable JSON writes it as an array.
 * @param value - any value
 * @returns true for a record log
 */
export function isRecordLog(value: unknown): value is RecordLog<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function'
  );
}
