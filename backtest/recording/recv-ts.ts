/** The largest |epoch ms| a Date holds (±100 000 000 days). */
const MAX_DATE_MS = 8.64e15;

/**
 * Whether a record's recvTs is one Keel can replay: an integer number of epoch milliseconds a
 * Date can hold. Infinity (JSON's `1e309`), a fraction or a time past the Date range is not.
 * @param value - the record's recvTs as parsed
 * @returns true for a usable receive time
 */
export function isRecvTs(value: unknown): value is number {
  return (
    typeof value === 'number' && Number.isInteger(value) && value <= MAX_DATE_MS && value >= -MAX_DATE_MS
  );
}
