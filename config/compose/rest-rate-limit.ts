import type { LiveVenueOptions } from '../../core/venue/index.ts';
import type { KeelConfig } from '../schema/index.ts';

/**
 * The REST rate Keel allows itself in a live session: `venue.restRatePerSec` on every endpoint
 * without a limit of its own (order and position history, statements and order queries keep
 * theirs), as a window of whole requests (10/s: 10 per 1000 ms; 2.5/s: 3 per 1200 ms). Calls over
 * it wait their turn (the REST client's limiter queues, never fails). No limit when the run has
 * no venue section (paper mode on the embedded venue).
 * @param config - the run's config
 * @returns the createLiveVenue option, or nothing
 */
export function restRateLimitOf(config: Pick<KeelConfig, 'venue'>): Pick<LiveVenueOptions, 'rateLimits'> {
  const perSec = config.venue?.restRatePerSec;
  if (perSec === undefined) return {};
  const limit = Math.max(1, Math.round(perSec));
  return { rateLimits: { other: { limit, windowMs: (1000 * limit) / perSec } } };
}
