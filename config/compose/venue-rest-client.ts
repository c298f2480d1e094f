import type { Logger } from 'pino';
import { hmacSigner, VenueRestClient } from '../../core/venue/index.ts';
import type { VenueConfig } from '../schema/index.ts';

/**
 * A REST client to a config's venue, signing with its API key and secret.
 * @param venue - the config's venue section
 * @param logger - where the client logs (retries, malformed replies)
 * @returns the client; close it when done
 */
export function venueRestClient(venue: VenueConfig, logger: Logger): VenueRestClient {
  return new VenueRestClient({
    baseUrl: venue.restUrl,
    signer: hmacSigner(venue.apiKey.reveal(), venue.apiSecret.reveal()),
    logger,
  });
}
