import type { LiveVenueOptions } from '../../core/venue/index.ts';
import type { KeelConfig } from '../schema/index.ts';

/**
 * How long a session's modify or cancel of an order whose place the venue has not answered waits
 * for that answer before it is sent anyway: `venue.heldCommandWaitMs` in live mode (and paper mode
 * on an external venue); the execution client's default (10 s) when the run has no venue section
 * (paper mode on the embedded venue).
 * @param config - the run's config
 * @returns the createLiveVenue option, or nothing
 */
export function heldCommandWaitOf(
  config: Pick<KeelConfig, 'venue'>,
): Pick<LiveVenueOptions, 'heldCommandWaitMs'> {
  const heldCommandWaitMs = config.venue?.heldCommandWaitMs;
  return heldCommandWaitMs === undefined ? {} : { heldCommandWaitMs };
}

/**
 * How often a session reconciles while its private stream is up, so a User Data push the venue
 * lost without closing the socket is caught up: `venue.reconcileEveryMs` in live mode (and paper
 * mode on an external venue); none when the run has no venue section (the embedded paper venue
 * loses no push).
 * @param config - the run's config
 * @returns the createLiveVenue option, or nothing
 */
export function reconcileEveryOf(
  config: Pick<KeelConfig, 'venue'>,
): Pick<LiveVenueOptions, 'reconcileEveryMs'> {
  const reconcileEveryMs = config.venue?.reconcileEveryMs;
  return reconcileEveryMs === undefined ? {} : { reconcileEveryMs };
}
