import type { LiveVenueOptions } from '../../core/venue/index.ts';
import type { KeelConfig } from '../schema/index.ts';

/**
 * The private WebSocket's heartbeat and silence watchdog of a session: `venue.privatePingMs` and
 * `venue.privateSilentPings` in live mode (and paper mode on an external venue); the client's
 * defaults (`DEFAULT_HEARTBEAT`) when the run has no venue section (paper mode on the embedded
 * venue).
 * @param config - the run's config
 * @returns the createLiveVenue option, or nothing
 */
export function privateHeartbeatOf(
  config: Pick<KeelConfig, 'venue'>,
): Pick<LiveVenueOptions, 'privateHeartbeat'> {
  const venue = config.venue;
  if (venue === undefined) return {};
  return {
    privateHeartbeat: { pingIntervalMs: venue.privatePingMs, silentPings: venue.privateSilentPings },
  };
}
