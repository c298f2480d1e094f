import { pino } from 'pino';
import type { UserEvent } from '../../core/model/index.ts';
import {
  hmacSigner,
  LiveExecutionClient,
  type LiveExecutionOptions,
  PrivateWsClient,
  VenueRestClient,
} from '../../core/venue/index.ts';
import type { FakeTimer } from './venue-fake-timer.ts';
import type { FakeVenueHttp } from './venue-http-server.ts';
import { waitFor } from './venue-wait.ts';
import type { FakeVenueWs } from './venue-ws-server.ts';

/** A live execution client started on a fake venue's servers, with its REST and socket clients. */
export interface StartedLiveClient {
  readonly rest: VenueRestClient;
  readonly privateWs: PrivateWsClient;
  readonly live: LiveExecutionClient;
  /** Every event the client emitted. */
  readonly events: UserEvent[];
}

/**
 * Starts a live execution client on a fake venue's REST and private-socket servers, under a fake
 * timer and a silent logger: key `k`, secret `s`, reconnects after 100 ms of fake time, no REST
 * retries unless `defaultRestRetry`. Resolves once the first reconciliation's account event is out
 * (start() reconciles before it resolves; waiting for the event too keeps that promise with a
 * client whose start() does not).
 * @param http - the fake venue's REST server
 * @param ws - its private-socket server
 * @param timer - the fake timer every client runs on
 * @param options - execution client options to change; `defaultRestRetry`: the REST client's
 *   default retry policy (3 retries of a GET) instead of none
 * @returns the clients and the events list; stop `live` and close `rest` when done
 */
export async function startedLiveClient(
  http: FakeVenueHttp,
  ws: FakeVenueWs,
  timer: FakeTimer,
  options: Partial<LiveExecutionOptions> & { readonly defaultRestRetry?: boolean } = {},
): Promise<StartedLiveClient> {
  const { defaultRestRetry, ...clientOptions } = options;
  const logger = pino({ level: 'silent' });
  const signer = hmacSigner('k', 's');
  const rest = new VenueRestClient({
    baseUrl: http.url,
    signer,
    timer,
    logger,
    ...(defaultRestRetry === true ? {} : { retry: { maxRetries: 0, baseMs: 1, capMs: 1 } }),
  });
  const privateWs = new PrivateWsClient({
    url: ws.url,
    signer,
    timer,
    random: { next: () => 0 },
    requestTimeoutMs: 1_000,
    reconnect: { baseMs: 100, capMs: 1_000, minMs: 0 },
    logger,
  });
  const live = new LiveExecutionClient({ rest, ws: privateWs, timer, logger, ...clientOptions });
  const events: UserEvent[] = [];
  live.events.subscribe((event) => events.push(event));
  await live.start();
  await waitFor(() => events.some((event) => event.kind === 'account'), 'the first reconciliation');
  return { rest, privateWs, live, events };
}
