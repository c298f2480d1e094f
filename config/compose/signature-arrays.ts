import type { LiveVenueOptions } from '../../core/venue/index.ts';
import type { KeelConfig } from '../schema/index.ts';

/**
 * How a session's REST client writes array parameters into its signatures: the config's
 * `venue.signing.arrays`, else the client's default (a run without a venue section: the embedded
 * paper venue, which verifies with the same default).
 * @param config - the run's config
 * @returns the createLiveVenue option, or nothing
 */
export function signatureArraysOf(
  config: Pick<KeelConfig, 'venue'>,
): Pick<LiveVenueOptions, 'signatureArrays'> {
  const signatureArrays = config.venue?.signing.arrays;
  return signatureArrays === undefined ? {} : { signatureArrays };
}
