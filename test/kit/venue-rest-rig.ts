import { pino } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { hmacSigner, type RestClientOptions, VenueRestClient } from '../../core/venue/index.ts';
import {
  type FakeVenueHttp,
  type ReceivedRequest,
  type ScriptedReply,
  startFakeVenueHttp,
} from './venue-http-server.ts';

/** A REST client talking to a fake venue, shared by the tests of one describe block. */
export interface VenueRestRig {
  /** The fake venue: set its handler, read the requests it received. */
  readonly server: FakeVenueHttp;
  /** The client under test, pointed at the fake venue. */
  readonly client: VenueRestClient;
}

/**
 * Starts a fake REST venue and a client against it before the tests of the calling describe block
 * and closes both after them (it registers beforeAll and afterAll, so call it inside describe).
 * @param options - client options; baseUrl is the fake venue's, signer defaults to
 *   `hmacSigner('k', 's')` and logger to a silent one
 * @param handler - the fake venue's first reply handler (default: success with null data)
 * @returns the rig; its fields are readable once beforeAll has run, i.e. inside the tests
 * @throws Error when a field is read before beforeAll or after afterAll
 */
export function venueRestRig(
  options: Omit<Partial<RestClientOptions>, 'baseUrl'> = {},
  handler?: (request: ReceivedRequest) => ScriptedReply,
): VenueRestRig {
  let running: VenueRestRig | undefined;
  beforeAll(async () => {
    const server = await startFakeVenueHttp(handler);
    const client = new VenueRestClient({
      signer: hmacSigner('k', 's'),
      logger: pino({ level: 'silent' }),
      ...options,
      baseUrl: server.url,
    });
    running = { server, client };
  });
  afterAll(async () => {
    await running?.client.close();
    await running?.server.close();
    running = undefined;
  });
  const started = (): VenueRestRig => {
    if (running === undefined)
      throw new Error("venueRestRig: read before its describe block's beforeAll ran or after its afterAll");
    return running;
  };
  return {
    get server() {
      return started().server;
    },
    get client() {
      return started().client;
    },
  };
}
