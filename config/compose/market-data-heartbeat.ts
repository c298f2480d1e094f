import type { LiveVenueOptions } from '../../core/venue/index.ts';
import type { KeelConfig } from '../schema/index.ts';

/**
 * The market-data heartbeat and stall watchdog of a session: `venue.marketDataPingMs` and
 * `venue.marketDataSilentPings` in live mode; the client's defaults (`DEFAULT_HEARTBEAT`: 5 s, 3 intervals) when the
 * run has no venue section (paper mode on the embedded venue).
 * @param config - the run's config
 * @returns the createLiveVenue option, or nothing
 */
export function marketDataHeartbeatOf(
  config: Pick<KeelConfig, 'venue'>,
): Pick<LiveVenueOptions, 'marketDataHeartbeat'> {
  const venue = config.venue;
  if (venue === undefined) return {};
  return {
    marketDataHeartbeat: {
      heartbeatMs: venue.marketDataPingMs,
      silentHeartbeats: venue.marketDataSilentPings,
    },
  };
}
