/**
 * Keel's choice: the longest a `Retry-After` is honoured, ms. A 429 names a window of the venue's
 * rate limit, seconds long; a larger value (a proxy's, or a mistake) would stall every call to the
 * endpoint for minutes, while a retry after a minute costs at most one more 429.
 */
export const DEFAULT_RETRY_AFTER_CAP_MS = 60_000;

/**
 * How long a `Retry-After` header asks the client to wait (RFC 9110: delay-seconds or an
 * HTTP-date).
 * @param value - the header's value; undefined when the reply has none
 * @param serverNow - the replying server's time, epoch ms (its `Date`, else the venue's clock as
 *   estimated): an HTTP-date is read against it, not against the machine's clock
 * @returns the wait in ms, 0 for a date already past; undefined when absent or unreadable
 * @example
 * retryAfterMs('2', now); // 2000
 * retryAfterMs('Wed, 21 Oct 2015 07:28:02 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT')); // 2000
 */
export function retryAfterMs(value: string | undefined, serverNow: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1_000;
  // An HTTP-date names its day or month; Date.parse alone takes '-5' or '1.5' for dates too.
  if (!/[A-Za-z]{3}/.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isFinite(at) ? Math.max(0, at - serverNow) : undefined;
}
