import { pino } from 'pino';
import { connectVenueSession } from '../../config/compose/venue-session-connection.ts';
import type { VenueSessionOptions } from '../../config/compose/venue-session-options.ts';
import type { KeelConfig } from '../../config/schema/index.ts';
import type { LiveVenue } from '../../core/venue/index.ts';

/** Where a test's venue connection points its sockets; both default to a closed port. */
export interface TestVenueSockets {
  readonly privateWsUrl?: string;
  readonly marketDataWsUrl?: string;
}

/**
 * Connects a live session's venue as `venue-session-connection.ts` does for a config, with no
 * kernel and no recorder, so a test can read what the config's venue settings reached. Its REST
 * URL is a closed port; the caller stops the returned venue.
 * @param config - the session's config (`liveConfigWith` in `config-texts.ts`)
 * @param sockets - the WebSocket URLs, default a closed port
 * @returns the session's live venue
 */
export function connectTestVenue(config: KeelConfig, sockets: TestVenueSockets = {}): LiveVenue {
  const options = {
    config,
    instruments: [],
    lockstep: false,
    logger: pino({ level: 'silent' }),
    venue: {
      restUrl: 'http://127.0.0.1:9',
      privateWsUrl: sockets.privateWsUrl ?? 'ws://127.0.0.1:9/v1/private',
      marketDataWsUrl: sockets.marketDataWsUrl ?? 'ws://127.0.0.1:9/marketdata/v2/public',
      apiKey: 'k',
      apiSecret: 's',
      brokerClientId: 'main',
      label: 'test venue',
    },
  } as unknown as VenueSessionOptions;
  return connectVenueSession({
    options,
    recorder: undefined,
    stopping: () => false,
    kernel: () => {
      throw new Error('no kernel in this test');
    },
  }).live;
}
