import { createServer, type Server, type Socket } from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type HttpRequest,
  type HttpResponse,
  type HttpTransport,
  hmacSigner,
  RestClientClosedError,
  type RestClientOptions,
  VenueError,
  VenueRestClient,
} from '../../../../core/venue/index.ts';
import { fakeTimer } from '../../../kit/venue-fake-timer.ts';
import { waitFor } from '../../../kit/venue-wait.ts';
import { ok } from '../../../kit/venue-wire-samples.ts';

let server: Server | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  server = undefined;
});

/** A venue that takes connections and never answers, and a client on it whose backoff waits on a fake timer. */
async function clientOnSilentVenue() {
  server = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const timer = fakeTimer();
  const client = new VenueRestClient({
    baseUrl: `http://127.0.0.1:${address.port}`,
    signer: hmacSigner('k', 's'),
    logger: pino({ level: 'silent' }),
    timer,
    timeoutMs: 60_000,
    retry: { maxRetries: 3, baseMs: 1_000, capMs: 1_000 },
  });
  return { client, timer };
}

describe('a REST client closed while the venue does not answer', () => {
  it('ends the GET under way once the time given to the close is up, without retrying it', async () => {
    const { client, timer } = await clientOnSilentVenue();
    const call = client.getOpenOrders().catch((error: unknown) => error);
    await waitFor(() => sockets.length > 0, 'the request to reach the venue');
    await client.close(50);
    expect(await call).toMatchObject({ code: 'UND_ERR_DESTROYED' });
    // No retry waits on its backoff.
    expect(timer.pending()).toBe(0);
  });

  it('fails a GET made after the close at once, saying the client is closed, without retrying it', async () => {
    const { client, timer } = await clientOnSilentVenue();
    await client.close();
    const error = await client.getOpenOrders().catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(RestClientClosedError);
    expect((error as Error).message).toBe(`GET ${ORDERS} was not sent: the REST client is closed`);
    expect(timer.pending()).toBe(0);
  });
});

/** What the in-memory venue answers a request it gets. */
type Answer = (request: HttpRequest) => Promise<HttpResponse>;

const ORDERS = '/api/v1/trading/orders';
const ORDER = '/api/v1/trading/order';
const answer = (status: number, body: unknown, retryAfter?: string): Promise<HttpResponse> =>
  Promise.resolve({
    status,
    body: JSON.stringify(body),
    ...(retryAfter === undefined ? {} : { retryAfter }),
  });
const PLACE = { sym: 'S', side: 'BUY', orderType: 'LIMIT', orderQty: '1', limitPrice: '1' } as const;

/**
 * A client on an in-memory venue (undici's ways kept: a request sent after the close fails at
 * once) whose waits all run on a fake timer; `sent` lists the requests the venue got.
 */
function clientOnMemoryVenue(answerOf: Answer, options: Partial<RestClientOptions> = {}) {
  const timer = fakeTimer();
  const sent: string[] = [];
  let closed = false;
  const transport: HttpTransport = {
    send(request) {
      if (closed)
        return Promise.reject(Object.assign(new Error('The client is closed'), { code: 'UND_ERR_CLOSED' }));
      sent.push(`${request.method} ${request.path.split('?')[0]}`);
      return answerOf(request);
    },
    close: async () => {
      closed = true;
    },
  };
  const client = new VenueRestClient({
    baseUrl: 'http://127.0.0.1:9',
    signer: hmacSigner('k', 's'),
    logger: pino({ level: 'silent' }),
    timer,
    transport,
    retry: { maxRetries: 3, baseMs: 200, capMs: 3_000 },
    ...options,
  });
  return { client, timer, sent };
}

/** A call's outcome once it settles; `settled` false while it still waits. */
function watch(call: Promise<unknown>): { settled: boolean; outcome: unknown } {
  const seen = { settled: false, outcome: undefined as unknown };
  call.then(
    (value) => Object.assign(seen, { settled: true, outcome: value }),
    (error: unknown) => Object.assign(seen, { settled: true, outcome: error }),
  );
  return seen;
}

/** Lets the promise callbacks queued so far run (no timer of the client's fires meanwhile). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('a REST client closed while requests wait to be sent', () => {
  it('refuses a request waiting for room in its rate limit, the rate limit timer cancelled', async () => {
    const { client, timer, sent } = clientOnMemoryVenue(() => answer(200, ok([])), {
      rateLimits: { other: { limit: 1, windowMs: 60_000 } },
    });
    await client.getOpenOrders();
    const queued = watch(client.getOpenOrders());
    await settle();
    expect(timer.pending()).toBe(1);
    await client.close();
    await settle();
    expect(queued.outcome).toBeInstanceOf(RestClientClosedError);
    expect((queued.outcome as Error).message).toBe(`GET ${ORDERS} was not sent: the REST client is closed`);
    expect(timer.pending()).toBe(0);
    expect(sent).toEqual([`GET ${ORDERS}`]);
  });

  it("refuses a call waiting out its endpoint's hold (a 429's Retry-After), the hold's timer cancelled", async () => {
    const { client, timer, sent } = clientOnMemoryVenue(() => answer(429, '', '60'));
    expect(await client.placeOrder(PLACE).catch((error: unknown) => error)).toBeInstanceOf(VenueError);
    const held = watch(client.placeOrder({ ...PLACE, clientOrderId: 'c-held' }));
    await settle();
    expect(timer.pending()).toBe(1);
    await client.close();
    await settle();
    expect(held.outcome).toBeInstanceOf(RestClientClosedError);
    expect((held.outcome as Error).message).toBe(`POST ${ORDER} was not sent: the REST client is closed`);
    expect(timer.pending()).toBe(0);
    expect(sent).toEqual([`POST ${ORDER}`]);
  });

  it("ends a GET waiting out its endpoint's hold for its retry, saying why its attempt failed", async () => {
    const { client, timer, sent } = clientOnMemoryVenue(() => answer(429, '', '60'));
    const read = watch(client.getOrder({ clientOrderId: 'c-1' }));
    await settle();
    // The backoff (at most 200 ms) is over; the hold, 60 s from the 429, is not.
    await timer.advance(1_000);
    expect(timer.pending()).toBe(1);
    await client.close();
    await settle();
    expect(read.outcome).toBeInstanceOf(RestClientClosedError);
    expect((read.outcome as Error).message).toBe(
      `GET ${ORDER} was not retried: the REST client is closed (its last attempt failed: GET ${ORDER} reply: HTTP 429)`,
    );
    expect(timer.pending()).toBe(0);
    expect(sent).toEqual([`GET ${ORDER}`]);
  });

  it("ends a GET waiting on its retry's backoff, the backoff's timer cancelled", async () => {
    const { client, timer, sent } = clientOnMemoryVenue(() => answer(503, ''));
    const read = watch(client.getOrder({ clientOrderId: 'c-1' }));
    await settle();
    expect(timer.pending()).toBe(1);
    await client.close();
    await settle();
    expect(read.outcome).toBeInstanceOf(RestClientClosedError);
    expect((read.outcome as RestClientClosedError).lastFailure).toBe(`GET ${ORDER} reply: HTTP 503`);
    expect(timer.pending()).toBe(0);
    expect(sent).toEqual([`GET ${ORDER}`]);
  });

  it('does not retry a GET whose attempt under way at the close fails after it, nor wait for its backoff', async () => {
    let reply: (response: HttpResponse) => void = () => undefined;
    const { client, timer, sent } = clientOnMemoryVenue(
      () => new Promise<HttpResponse>((resolve) => (reply = resolve)),
    );
    const read = watch(client.getOrder({ clientOrderId: 'c-1' }));
    await settle();
    await client.close();
    reply({ status: 503, body: '' });
    await settle();
    expect(read.outcome).toBeInstanceOf(RestClientClosedError);
    expect((read.outcome as Error).message).toBe(
      `GET ${ORDER} was not retried: the REST client is closed (its last attempt failed: GET ${ORDER} reply: HTTP 503)`,
    );
    expect(timer.pending()).toBe(0);
    expect(sent).toEqual([`GET ${ORDER}`]);
  });
});
