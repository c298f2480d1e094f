import { z } from 'zod';

const NOT_A_TIME = 'must be an ISO date-time with a zone like 2026-11-20T09:30:00Z, or epoch milliseconds';
/** Epoch milliseconds below this (1973-03-03) are taken for epoch seconds written by mistake. */
const SECONDS_BELOW = 1e11;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/**
 * A point in time: an ISO 8601 date (`2026-11-20`, UTC midnight) or date-time with a zone
 * (`2026-11-20T09:30:00Z`), or epoch milliseconds. Comes out as epoch milliseconds. A zone is
 * required so that a run does not depend on the machine's time zone. A number under 1e11 other
 * than 0 is refused: it is epoch seconds (a time before 1973 in milliseconds), which would
 * otherwise select a window in 1970 silently.
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
  .refine((value) => typeof value !== 'number' || value === 0 || value >= SECONDS_BELOW, {
    error: (issue) =>
      `must be epoch milliseconds, not seconds (${String(issue.input)}): write ${String(issue.input)}000 or an ISO date-time like ${new Date(Number(issue.input) * 1000).toISOString()}`,
  })
  .transform((value) => (typeof value === 'number' ? value : Date.parse(value)));
