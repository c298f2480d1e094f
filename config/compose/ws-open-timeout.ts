import type { LiveVenueOptions } from '../../core/venue/index.ts';
import type { KeelConfig } from '../schema/index.ts';

/**
 * How long each connection attempt of a session's private and market-data WebSockets may take to
 * open: `venue.wsOpenTimeoutMs` in live mode; the clients' default (10 s) when the run has no
 * venue section (paper mode on the embedded venue).
 * @param config - the run's config
 * @returns the createLiveVenue option, or nothing
 */
export function wsOpenTimeoutOf(config: Pick<KeelConfig, 'venue'>): Pick<LiveVenueOptions, 'openTimeoutMs'> {
  const openTimeoutMs = config.venue?.wsOpenTimeoutMs;
  return openTimeoutMs === undefined ? {} : { openTimeoutMs };
}
