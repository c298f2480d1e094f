import { z } from 'zod';

const NOT_A_TIME = 'must be an ISO date-time with a zone like 2026-11-20T09:30:00Z, or epoch milliseconds';
/** Epoch milliseconds in this range (1970-01-12 to 1970-04-26) are epoch seconds written by mistake (2001 to 2286). */
const SECONDS_FROM = 1e9;
const SECONDS_BELOW = 1e10;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/**
 * A point in time: an ISO 8601 date (`2026-11-20`, UTC midnight) or date-time with a zone
 * (`2026-11-20T09:30:00Z`), or epoch milliseconds. Comes out as epoch milliseconds. A zone is
 * required so that a run does not depend on the machine's time zone; fractions of a second take
 * up to 6 digits (Python's `isoformat()`), read to the millisecond. A number from 1e9 to 1e10 is
 * refused: it is epoch seconds (2001 to 2286), which read as milliseconds would select a window
 * in 1970 silently.
 */
export const timeValue = z
  .union(
    [
      z.int().nonnegative({ error: NOT_A_TIME }),
      z
        .string()
        .refine((text) => ISO_UTC.test(text) && Number.isFinite(Date.parse(text)), { error: NOT_A_TIME }),
    ],
    { error: NOT_A_TIME },
  )
  .refine((value) => typeof value !== 'number' || value < SECONDS_FROM || value >= SECONDS_BELOW, {
    error: (issue) =>
      `must be epoch milliseconds, not seconds (${String(issue.input)}): write ${String(issue.input)}000 or an ISO date-time like ${new Date(Number(issue.input) * 1000).toISOString()}`,
  })
  .transform((value) => (typeof value === 'number' ? value : Date.parse(value)));
