const TIME_TO_SEND = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/**
 * Parses the spec's `timeToSend` (`yyyy-MM-dd HH:mm:ss`). The spec shows no time zone: Keel reads
 * it as UTC (Keel's choice).
 * @param text - the field
 * @returns epoch ms, NaN when malformed
 */
export function parseTimeToSend(text: string): number {
  const match = TIME_TO_SEND.exec(text);
  if (!match) return Number.NaN;
  const [, y, mo, d, h, mi, s] = match.map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return Number.NaN;
  return Date.UTC(y, mo - 1, d, h, mi, s);
}
