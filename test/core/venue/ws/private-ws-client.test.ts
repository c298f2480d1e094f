import { createHmac } from 'node:crypto';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UserEvent } from '../../../../core/model/index.ts';
import {
  ClientClosedError,
  type ConnectionEvent,
  hmacSigner,
  NotConnectedError,
  PrivateWsClient,
  ServerClock,
  VenueError,
  VenueTimeoutError,
} from '../../../../core/venue/index.ts';
import { type FakeTimer, fakeTimer } from '../../../kit/venue-fake-timer.ts';
import { waitFor } from '../../../kit/venue-wait.ts';
import {
  WIRE_ACCOUNT,
  WIRE_ASSET_WITH_LOAN,
  WIRE_EXECUTION,
  WIRE_LIQ_EVENT,
  WIRE_LIQ_POSITION,
  WIRE_ORDER,
  WIRE_POSITION,
} from '../../../kit/venue-wire-samples.ts';
import { type FakeVenueWs, startFakeVenueWs } from '../../../kit/venue-ws-server.ts';

describe('private WebSocket client', () => {
  let venue: FakeVenueWs;
  let timer: FakeTimer;
  let client: PrivateWsClient;

  /** Replaces the client by one whose place orders are limited to `limit` a minute, connected. */
  async function reconnectWithPlaceLimit(limit: number, logger = pino({ level: 'silent' })): Promise<void> {
    await client.close();
    client = new PrivateWsClient({
      url: venue.url,
      signer: hmacSigner('ws-key', 'ws-secret'),
      timer,
      // Its silence watchdog (3 intervals) stays beyond the minute the tests jump the fake clock.
      pingIntervalMs: 25_000,
      orderRateLimit: { limit, windowMs: 60_000 },
      logger,
    });
    await client.connect();
  }

  beforeEach(async () => {
    venue = await startFakeVenueWs();
    timer = fakeTimer(1_700_000_000_500);
    client = new PrivateWsClient({
      url: venue.url,
      signer: hmacSigner('ws-key', 'ws-secret'),
      timer,
      random: { next: () => 0 },
      pingIntervalMs: 20_000,
      requestTimeoutMs: 1_000,
      reconnect: { baseMs: 100, capMs: 1_000 },
      logger: pino({ level: 'silent' }),
    });
  });
  afterEach(async () => {
    await client.close();
    await venue.close();
  });

  it('logs in with api key, timestamp in seconds, the hand-computed HMAC sign and onlyTrade', async () => {
    await client.connect();
    const login = JSON.parse(venue.frames[0] ?? '{}');
    const sign = createHmac('sha256', 'ws-secret').update('1700000000GET/users/self/verify').digest('hex');
    expect(login).toEqual({
      action: 'login',
      args: { apiKey: 'ws-key', timestamp: '1700000000', sign, onlyTrade: false },
    });
    expect(client.isLoggedIn).toBe(true);
  });

  it('rejects connect with VenueError 60009 when the venue refuses the login', async () => {
    venue.loginCode = 60009;
    const error = await client.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VenueError);
    expect((error as VenueError).code).toBe(60009);
    expect((error as VenueError).meaning).toMatch(/login failed/);
  });

  it('sends the text ping every interval (inside the 30 s idle limit) and counts the pong', async () => {
    await client.connect();
    await timer.advance(20_000);
    await waitFor(() => client.counters.heartbeats === 1, 'first pong');
    await timer.advance(20_000);
    await waitFor(() => client.counters.heartbeats === 2, 'second pong');
    expect(venue.frames.filter((f) => f === 'ping')).toHaveLength(2);
  });

  it('decodes every User Data channel pushed after login into model events', async () => {
    const events: UserEvent[] = [];
    client.userEvents.subscribe((e) => events.push(e));
    await client.connect();
    venue.push({ channel: 'Orders', data: [WIRE_ORDER] });
    venue.push({ channel: 'Trades', data: WIRE_EXECUTION });
    venue.push({ channel: 'Positions', data: [WIRE_POSITION] });
    venue.push({ channel: 'Assets', data: [WIRE_ASSET_WITH_LOAN] });
    venue.push({ channel: 'Accounts', data: WIRE_ACCOUNT });
    venue.push({ channel: 'LiquidationEvent', data: WIRE_LIQ_EVENT });
    venue.push({ channel: 'LiquidationPosition', data: WIRE_LIQ_POSITION });
    venue.push({ channel: 'LiquidationPositionByUser', data: WIRE_LIQ_POSITION });
    await waitFor(() => events.length === 8, 'eight events');
    expect(events.map((e) => e.kind)).toEqual([
      'order',
      'execution',
      'position',
      'asset',
      'account',
      'liquidationEvent',
      'liquidationPosition',
      'liquidationPosition',
    ]);
    const [order, execution, , asset, , , byPortfolio, byUser] = events;
    expect(order?.kind === 'order' && order.order.tp?.triggerPrice.toString()).toBe('65000');
    expect(execution?.kind === 'execution' && execution.execution.rpnl.toString()).toBe('0');
    expect(asset?.kind === 'asset' && asset.asset.netMarginValue?.toString()).toBe('900');
    expect(byPortfolio?.kind === 'liquidationPosition' && byPortfolio.byUser).toBe(false);
    expect(byUser?.kind === 'liquidationPosition' && byUser.byUser).toBe(true);
    expect(client.counters.pushes).toBe(8);
  });

  it('counts a malformed push and an unknown channel without crashing, then keeps decoding', async () => {
    const events: UserEvent[] = [];
    client.userEvents.subscribe((e) => events.push(e));
    await client.connect();
    venue.push({ channel: 'Orders', data: [{ ...WIRE_ORDER, orderQty: 12 }] });
    venue.push({ channel: 'Mystery', data: {} });
    venue.push('{"truncated":');
    venue.push({ channel: 'Orders', data: [WIRE_ORDER] });
    await waitFor(() => events.length === 1, 'the good push');
    expect(client.counters).toMatchObject({ malformed: 2, unexpected: 1, pushes: 1 });
  });

  it('correlates replies by id, even out of order', async () => {
    await client.connect();
    const held: Array<{ id: string; action: string }> = [];
    venue.onRequest = (r) => {
      held.push(r);
      if (held.length === 2) {
        for (const h of [...held].reverse()) {
          venue.push({
            event: h.action,
            id: h.id,
            code: 0,
            message: 'success',
            data: { orderId: `o-${h.id}` },
          });
        }
      }
      return undefined;
    };
    const [a, b] = await Promise.all([
      client.request('cancel_order', { clientOrderId: 'a' }),
      client.request('cancel_order', { clientOrderId: 'b' }),
    ]);
    expect((a.data as { orderId: string }).orderId).toBe(`o-${held[0]?.id}`);
    expect((b.data as { orderId: string }).orderId).toBe(`o-${held[1]?.id}`);
  });

  it('raises VenueError for a reply with a non-zero code', async () => {
    await client.connect();
    venue.onRequest = (r) => ({ event: r.action, id: r.id, code: 401117, message: 'already completed' });
    await expect(client.request('cancel_order', { clientOrderId: 'x' })).rejects.toMatchObject({
      code: 401117,
    });
  });

  it('times a request out when no reply comes, and counts the late reply as unmatched', async () => {
    await client.connect();
    let lateId = '';
    venue.onRequest = (r) => {
      lateId = r.id;
      return undefined;
    };
    const pending = client.request('cancel_order', { clientOrderId: 'x' }).catch((e: unknown) => e);
    await waitFor(() => lateId !== '', 'request reached the venue');
    await timer.advance(1_000);
    expect(await pending).toBeInstanceOf(VenueTimeoutError);
    venue.push({ event: 'cancel_order', id: lateId, code: 0, data: null });
    await waitFor(() => client.counters.unmatchedReplies === 1, 'late reply counted');
  });

  it('queues place orders over the socket limit instead of failing them, and warns once when they start to wait', async () => {
    const warnings: string[] = [];
    await reconnectWithPlaceLimit(
      2,
      pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line).msg) }),
    );
    const replies = [1, 2, 3, 4].map((i) => client.request('place_order', { clientOrderId: `c${i}` }));
    expect(warnings).toEqual(['place-order rate limit reached: place orders wait for room in the window']);
    await Promise.all(replies.slice(0, 2));
    expect(venue.requests).toHaveLength(2);
    await timer.advance(59_999);
    expect(venue.requests).toHaveLength(2);
    await timer.advance(1);
    await Promise.all(replies.slice(2));
    expect(venue.requests.map((r) => r.args.clientOrderId)).toEqual(['c1', 'c2', 'c3', 'c4']);
    expect(warnings).toHaveLength(1);
  });

  it('sends cancels and amendments at once when the place-order limit is used up', async () => {
    await reconnectWithPlaceLimit(2);
    await Promise.all([1, 2].map((i) => client.request('place_order', { clientOrderId: `p${i}` })));
    await Promise.all([
      client.request('cancel_order', { clientOrderId: 'p1' }),
      client.request('replace_order', { clientOrderId: 'p2', limitPrice: '99' }),
      client.request('cancel_orders', { clientOrderIds: ['p1', 'p2'] }),
    ]);
    expect(venue.requests.map((r) => r.action)).toEqual([
      'place_order',
      'place_order',
      'cancel_order',
      'replace_order',
      'cancel_orders',
    ]);
  });

  it('sends a cancel or amendment made while places wait after those places, never before the place it may act on', async () => {
    await reconnectWithPlaceLimit(1);
    const first = client.request('place_order', { clientOrderId: 'p1' });
    const queued = client.request('place_order', { clientOrderId: 'p2' });
    const cancel = client.request('cancel_order', { clientOrderId: 'p2' });
    const cancelAll = client.request('cancel_orders', { sym: 'BINANCE_PERP_BTC_USDT' });
    await first;
    expect(venue.requests.map((r) => r.action)).toEqual(['place_order']);
    await timer.advance(60_000);
    await Promise.all([queued, cancel, cancelAll]);
    expect(venue.requests.map((r) => `${r.action}:${r.args.clientOrderId ?? 'all'}`)).toEqual([
      'place_order:p1',
      'place_order:p2',
      'cancel_order:p2',
      'cancel_orders:all',
    ]);
  });

  it('refuses at its close the places waiting for the place-order limit, unsent and with no timer left', async () => {
    await reconnectWithPlaceLimit(1);
    await client.request('place_order', { clientOrderId: 'p1' });
    const queued = client.request('place_order', { clientOrderId: 'p2' });
    const cancel = client.request('cancel_order', { clientOrderId: 'p2' });
    const outcomes = Promise.allSettled([queued, cancel]);
    await client.close();
    const [place, after] = await outcomes;
    expect(place).toEqual({ status: 'rejected', reason: new NotConnectedError('place_order id 2') });
    expect(after).toEqual({ status: 'rejected', reason: new NotConnectedError('cancel_order id 3') });
    expect(timer.pending()).toBe(0);
    expect(venue.requests.map((r) => r.args.clientOrderId)).toEqual(['p1']);
  });

  it("stamps its login and drop on the venue's clock it shares, not the machine's", async () => {
    const venueBehindMs = 2 * 365 * 86_400_000;
    const serverClock = new ServerClock(timer, pino({ level: 'silent' }));
    serverClock.observe(new Date(timer.now() - venueBehindMs).toUTCString(), timer.now(), timer.now());
    const onVenueClock = new PrivateWsClient({
      url: venue.url,
      signer: hmacSigner('ws-key', 'ws-secret'),
      timer,
      serverClock,
      logger: pino({ level: 'silent' }),
    });
    const connections: ConnectionEvent[] = [];
    onVenueClock.connection.subscribe((e) => connections.push(e));
    await onVenueClock.connect();
    venue.dropAll();
    await waitFor(() => connections.some((e) => e.kind === 'dropped'), 'drop noticed');
    await onVenueClock.close();
    const onVenueTime = (ts: number) => Math.abs(ts - (timer.now() - venueBehindMs)) <= 1_000;
    expect(connections.map((e) => [e.kind, onVenueTime(e.ts)])).toEqual([
      ['loggedIn', true],
      ['dropped', true],
    ]);
  });

  it('reconnects with backoff after the venue drops the socket, and logs in again', async () => {
    const connections: ConnectionEvent[] = [];
    client.connection.subscribe((e) => connections.push(e));
    await client.connect();
    venue.dropAll();
    await waitFor(() => connections.some((e) => e.kind === 'dropped'), 'drop noticed');
    expect(venue.logins).toBe(1);
    // backoff would be 50 ms, but logins are limited to 1 per second (per public venue docs)
    await timer.advance(999);
    expect(venue.logins).toBe(1);
    await timer.advance(1);
    await waitFor(() => venue.logins === 2 && client.isLoggedIn, 'second login');
    expect(connections.map((e) => e.kind)).toEqual(['loggedIn', 'dropped', 'loggedIn']);
    expect(connections[2]).toMatchObject({ kind: 'loggedIn', reconnect: true });
  });

  it('does not log in after close() was called (a stop during start-up wins): connect() fails with ClientClosedError', async () => {
    await client.close();
    await expect(client.connect()).rejects.toBeInstanceOf(ClientClosedError);
    expect(client.isLoggedIn).toBe(false);
    expect(venue.frames.filter((f) => f.includes('"login"'))).toHaveLength(0);
  });
});
