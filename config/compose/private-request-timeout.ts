import type { LiveVenueOptions } from '../../core/venue/index.ts';
import type { KeelConfig } from '../schema/index.ts';

/**
 * How long a session's private WebSocket requests (order-entry commands, the login) wait for
 * their replies: `venue.privateRequestTimeoutMs` in live mode (and paper mode on an external
 * venue); the client's default (`DEFAULT_REQUEST_TIMEOUT_MS`, 5 s) when the run has no venue
 * section (paper mode on the embedded venue).
 * @param config - the run's config
 * @returns the createLiveVenue option, or nothing
 */
export function privateRequestTimeoutOf(
  config: Pick<KeelConfig, 'venue'>,
): Pick<LiveVenueOptions, 'requestTimeoutMs'> {
  const requestTimeoutMs = config.venue?.privateRequestTimeoutMs;
  return requestTimeoutMs === undefined ? {} : { requestTimeoutMs };
}
