import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hmacSigner, VenueRestClient, VenueTimeoutError } from '../../../../core/venue/index.ts';
import { type FakeTimer, fakeTimer } from '../../../kit/venue-fake-timer.ts';
import { type FakeVenueHttp, startFakeVenueHttp } from '../../../kit/venue-http-server.ts';
import { waitFor } from '../../../kit/venue-wait.ts';
import { ok, page, WIRE_ORDER } from '../../../kit/venue-wire-samples.ts';

describe('venue REST client: limits, pages and timeouts', () => {
  let server: FakeVenueHttp;
  let timer: FakeTimer;
  let client: VenueRestClient;

  beforeEach(async () => {
    server = await startFakeVenueHttp(() => ({ body: ok(page([])) }));
    timer = fakeTimer(0);
    client = new VenueRestClient({
      baseUrl: server.url,
      signer: hmacSigner('k', 's'),
      timer,
      logger: pino({ level: 'silent' }),
    });
  });
  afterEach(async () => {
    await client.close();
    await server.close();
  });

  it('queues a burst of 105 statement queries at 100 per 60 s: none fails, 5 wait for the window', async () => {
    const all = Array.from({ length: 105 }, (_, i) => client.getStatement({ page: i + 1 }));
    await waitFor(() => server.requests.length === 100, '100 requests');
    expect(client.queuedByGroup().statement).toBe(5);
    await timer.advance(59_999);
    expect(server.requests).toHaveLength(100);
    await timer.advance(1);
    const replies = await Promise.all(all);
    expect(replies).toHaveLength(105);
    expect(server.requests).toHaveLength(105);
  });

  it('limits order history and position history separately, 30 per 10 s each', async () => {
    const orders = Array.from({ length: 31 }, () => client.getOrderHistory());
    const positions = Array.from({ length: 31 }, () => client.getPositionHistory());
    await waitFor(() => server.requests.length === 60, '60 requests');
    expect(client.queuedByGroup()).toMatchObject({ historyOrders: 1, historyPosition: 1 });
    await timer.advance(10_000);
    await Promise.all([...orders, ...positions]);
    expect(server.requests).toHaveLength(62);
  });

  it('takes a slot of the limit for each retry of a GET, so 30 history queries with one answered 429 stay 30 per 10 s', async () => {
    let calls = 0;
    server.handler = () => (++calls === 1 ? { status: 429, body: '' } : { body: ok(page([])) });
    const all = Array.from({ length: 30 }, () => client.getOrderHistory());
    await waitFor(() => server.requests.length === 30, '30 requests');
    await timer.advance(5_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.requests).toHaveLength(30);
    expect(client.queuedByGroup().historyOrders).toBe(1);
    await timer.advance(5_000);
    await Promise.all(all);
    expect(server.requests).toHaveLength(31);
  });

  it('iterates every entry of a paginated endpoint, page by page, until totalSize', async () => {
    const orders = Array.from({ length: 5 }, (_, i) => ({ ...WIRE_ORDER, orderId: `o-${i}` }));
    server.handler = (r) => {
      const p = Number(r.query.page);
      return { body: ok(page(orders.slice((p - 1) * 2, p * 2), 5, p, 2)) };
    };
    const seen: string[] = [];
    for await (const order of client.pages('getArchivedOrderHistory', { filterExecuted: true }, 2)) {
      seen.push(order.orderId);
    }
    expect(seen).toEqual(['o-0', 'o-1', 'o-2', 'o-3', 'o-4']);
    expect(server.requests.map((r) => r.query)).toEqual([
      { filterExecuted: 'true', page: '1', pageSize: '2' },
      { filterExecuted: 'true', page: '2', pageSize: '2' },
      { filterExecuted: 'true', page: '3', pageSize: '2' },
    ]);
  });

  it('gives up with VenueTimeoutError when the venue never answers in time', async () => {
    const slow = new VenueRestClient({
      baseUrl: server.url,
      signer: hmacSigner('k', 's'),
      timeoutMs: 50,
      retry: { maxRetries: 0, baseMs: 1, capMs: 1 },
      logger: pino({ level: 'silent' }),
    });
    server.handler = () => ({ body: ok({ status: 'NORMAL' }), delayMs: 2_000 });
    await expect(slow.getSystemStatus()).rejects.toBeInstanceOf(VenueTimeoutError);
    await slow.close();
  });
});
