import fc from 'fast-check';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hmacSigner, VenueError, VenueRestClient } from '../../../../core/venue/index.ts';
import { retryAfterMs } from '../../../../core/venue/rest/retry-after.ts';
import { type FakeTimer, fakeTimer } from '../../../kit/venue-fake-timer.ts';
import {
  datedOn,
  type FakeVenueHttp,
  type ScriptedReply,
  startFakeVenueHttp,
} from '../../../kit/venue-http-server.ts';
import { waitFor } from '../../../kit/venue-wait.ts';
import { ok, WIRE_ORDER } from '../../../kit/venue-wire-samples.ts';

const START = 1_700_000_000_000;
const tooMany = (retryAfter: string): ScriptedReply => ({
  status: 429,
  body: '',
  headers: { 'retry-after': retryAfter },
});
const flush = () => new Promise((resolve) => setTimeout(resolve, 30));
const ORDER_ACK = { orderId: 'o-1', clientOrderId: 'c-next' };

describe('Retry-After: how long a 429 asks to wait', () => {
  it('reads delay-seconds', () => {
    fc.assert(
      fc.property(
        fc.nat(1_000_000),
        fc.nat(),
        (seconds, now) => retryAfterMs(` ${seconds} `, now) === seconds * 1_000,
      ),
    );
  });

  it("reads an HTTP-date against the server's time, and a date already past as no wait", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4_000_000_000 }),
        fc.integer({ min: -100_000, max: 100_000 }),
        (second, ahead) => {
          const at = second * 1_000;
          const serverNow = at - ahead;
          return retryAfterMs(new Date(at).toUTCString(), serverNow) === Math.max(0, ahead);
        },
      ),
    );
  });

  it('reads nothing from an absent or unreadable header', () => {
    expect([undefined, '', 'soon', '-5', '1.5'].map((value) => retryAfterMs(value, START))).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe('venue REST client: an endpoint no 429 held', () => {
  it("writes a request to an endpoint without a limit in the caller's tick, as a lockstep paper session needs", () => {
    const sent: string[] = [];
    const client = new VenueRestClient({
      baseUrl: 'http://127.0.0.1:9',
      signer: hmacSigner('k', 's'),
      logger: pino({ level: 'silent' }),
      transport: {
        send: (request) => {
          sent.push(`${request.method} ${request.path}`);
          return new Promise(() => undefined);
        },
        close: () => Promise.resolve(),
      },
    });
    void client.marginRepay({ exchange: 'BINANCE', coin: 'USDT', amount: '400' });
    expect(sent).toEqual(['POST /api/v1/trading/marginLoan/loan/repay']);
  });
});

describe('venue REST client: a 429 with Retry-After', () => {
  let server: FakeVenueHttp;
  let timer: FakeTimer;
  let client: VenueRestClient;
  let answers: Map<string, ScriptedReply[]>;

  /** What the venue answers once it lets a call through. */
  const replyOf = (method: string, path: string): unknown =>
    method === 'POST' ? ORDER_ACK : path === '/api/v1/trading/orders' ? [] : WIRE_ORDER;
  /** The 429 was read: the client waits (its retry's backoff, or a held call) on the fake timer. */
  const held = () => waitFor(() => timer.pending() > 0, 'the client waiting');
  /** The requests received on a path. */
  const on = (path: string) => server.requests.filter((r) => r.path === path);

  beforeEach(async () => {
    timer = fakeTimer(START);
    answers = new Map();
    server = await startFakeVenueHttp(
      datedOn(timer.now, (r) => answers.get(r.path)?.shift() ?? { body: ok(replyOf(r.method, r.path)) }),
    );
    client = new VenueRestClient({
      baseUrl: server.url,
      signer: hmacSigner('k', 's'),
      timer,
      retry: { maxRetries: 3, baseMs: 200, capMs: 3_000 },
      logger: pino({ level: 'silent' }),
    });
  });
  afterEach(async () => {
    await client.close();
    await server.close();
  });

  it('retries a GET only once the seconds it names have passed on the injected timer', async () => {
    answers.set('/api/v1/trading/order', [tooMany('5')]);
    const order = client.getOrder({ clientOrderId: 'c-1' });
    await waitFor(() => on('/api/v1/trading/order').length === 1, 'the first request');
    await held();
    await timer.advance(4_999);
    await flush();
    expect(on('/api/v1/trading/order')).toHaveLength(1);
    await timer.advance(1);
    expect((await order).clientOrderId).toBe('c-1');
    expect(on('/api/v1/trading/order')).toHaveLength(2);
  });

  it("reads an HTTP-date against the reply's Date, not the machine's clock", async () => {
    const venueAhead = 3_600_000;
    const retryAt = new Date(START + venueAhead + 8_000).toUTCString();
    answers.set('/api/v1/trading/order', [
      { ...tooMany(retryAt), date: new Date(START + venueAhead).toUTCString() },
    ]);
    const order = client.getOrder({ clientOrderId: 'c-1' });
    await waitFor(() => on('/api/v1/trading/order').length === 1, 'the first request');
    await held();
    await timer.advance(7_999);
    await flush();
    expect(on('/api/v1/trading/order')).toHaveLength(1);
    await timer.advance(1);
    await order;
    expect(on('/api/v1/trading/order')).toHaveLength(2);
  });

  it('holds further calls to that endpoint meanwhile, and not the calls to others', async () => {
    answers.set('/api/v1/trading/order', [tooMany('5')]);
    const first = client.getOrder({ clientOrderId: 'c-1' });
    await waitFor(() => on('/api/v1/trading/order').length === 1, 'the first request');
    await held();
    const second = client.getOrder({ clientOrderId: 'c-2' });
    const other = client.getOpenOrders();
    await waitFor(() => on('/api/v1/trading/orders').length === 1, 'the other endpoint');
    await timer.advance(4_999);
    await flush();
    expect(on('/api/v1/trading/order')).toHaveLength(1);
    await timer.advance(1);
    await Promise.all([first, second, other]);
    expect(on('/api/v1/trading/order')).toHaveLength(3);
  });

  it('never re-sends an order answered 429, and holds the next one until the time it names', async () => {
    answers.set('/api/v1/trading/order', [tooMany('2')]);
    const body = { sym: 'S', side: 'BUY', orderType: 'LIMIT', orderQty: '1', limitPrice: '1' } as const;
    const error = await client.placeOrder(body).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VenueError);
    expect((error as VenueError).httpStatus).toBe(429);
    const next = client.placeOrder({ ...body, clientOrderId: 'c-next' });
    await timer.advance(1_999);
    await flush();
    expect(on('/api/v1/trading/order')).toHaveLength(1);
    await timer.advance(1);
    await next;
    expect(on('/api/v1/trading/order')).toHaveLength(2);
    expect(on('/api/v1/trading/order').map((r) => JSON.parse(r.body).clientOrderId)).toEqual([
      undefined,
      'c-next',
    ]);
  });

  it('holds no longer than retryAfterCapMs (60 s by default), however long it asks', async () => {
    answers.set('/api/v1/trading/order', [tooMany('3600')]);
    const order = client.getOrder({ clientOrderId: 'c-1' });
    await waitFor(() => on('/api/v1/trading/order').length === 1, 'the first request');
    await held();
    await timer.advance(59_999);
    await flush();
    expect(on('/api/v1/trading/order')).toHaveLength(1);
    await timer.advance(1);
    await order;
    expect(on('/api/v1/trading/order')).toHaveLength(2);
  });
});
