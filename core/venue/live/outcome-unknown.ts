import { DecodeError, VenueError, VenueTimeoutError } from '../errors.ts';

/**
 * The venue's codes for a failure on its own side (per public venue docs): 40000 system error,
 * 50001 service unavailable. Neither says the command was refused before it ran: the venue may
 * have booked, amended or cancelled the order and then failed to answer.
 */
const VENUE_SIDE_FAILURE_CODES: ReadonlySet<number> = new Set([40000, 50001]);

/**
 * Whether a failed command may have run on the venue, over REST or the private WebSocket alike:
 * no reply came in time, the connection failed, the venue answered a failure on its own side
 * (40000, 50001, or an HTTP 5xx without a venue code), or its success reply could not be read.
 * Only a reply carrying another venue error code is a refusal.
 * @param error - what the REST or WebSocket client threw
 * @returns true when the outcome is unknown and must be looked up
 */
export function isOutcomeUnknown(error: unknown): boolean {
  if (error instanceof VenueTimeoutError || error instanceof DecodeError) return true;
  if (!(error instanceof VenueError)) return false;
  if (VENUE_SIDE_FAILURE_CODES.has(error.code)) return true;
  if (error.httpStatus === undefined) return error.code === 0;
  return error.httpStatus >= 500 && error.code === error.httpStatus;
}
