import { z } from 'zod';

const NOT_A_TIME = 'must be an ISO date-time with a zone like 2026-11-20T09:30:00Z, or epoch milliseconds';
const ISO_UTC = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/**
 * A point in time: an ISO 8601 date (`2026-11-20`, UTC midnight) or date-time with a zone
 * (`2026-11-20T09:30:00Z`), or epoch milliseconds. Comes out as epoch milliseconds. A zone is
 * required so that a run does not depend on the machine's time zone.
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
  .transform((value) => (typeof value === 'number' ? value : Date.parse(value)));
