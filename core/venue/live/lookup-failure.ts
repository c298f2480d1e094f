import type { Logger } from 'pino';
import { LastingLookupFailure } from '../../execution/index.ts';
import { DecodeError, VenueError } from '../errors.ts';

/** What failed: `order` or `algo order`, the query sent, and the sym. */
export interface FailedLookup {
  readonly what: string;
  readonly query: object;
  readonly sym: string;
}

/**
 * Reads the failure of a lookup of one order or algo order: the venue's 401018 (not found) is an
 * answer; an answer that cannot be decoded, or a code in `refusedCodes` (the venue refuses the
 * query itself, and would refuse it again), fails for good and is logged at error; anything else
 * (no answer, 5xx, 429, a nonce refusal...) may pass and is thrown as it is.
 * @param error - what the lookup threw
 * @param lookup - what was looked up, for the log and the message
 * @param refusedCodes - the venue codes that refuse this query itself
 * @param logger - where a failure for good is logged
 * @returns undefined for 401018
 * @throws LastingLookupFailure when asking again will not help; else `error`
 */
export function notFoundOrThrow(
  error: unknown,
  lookup: FailedLookup,
  refusedCodes: ReadonlySet<number>,
  logger: Logger,
): undefined {
  if (error instanceof VenueError && error.code === 401018) return undefined;
  const forGood =
    error instanceof DecodeError || (error instanceof VenueError && refusedCodes.has(error.code));
  if (!forGood) throw error;
  const { what, query, sym } = lookup;
  const message = `the lookup of ${what} ${JSON.stringify(query)} on ${sym} failed for good: ${String(error)}`;
  logger.error({ ...query, sym, err: String(error) }, message);
  throw new LastingLookupFailure(message, error);
}
