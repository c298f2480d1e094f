import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import type { MarketEvent, UserEvent } from '../../../../core/model/index.ts';
import {
  createLiveVenue,
  hmacSigner,
  type LiveVenue,
  type RawVenueMessage,
} from '../../../../core/venue/index.ts';
import { type FakeTimer, fakeTimer } from '../../../kit/venue-fake-timer.ts';
import { type FakeVenueHttp, startFakeVenueHttp } from '../../../kit/venue-http-server.ts';
import { advanceUntil, waitFor } from '../../../kit/venue-wait.ts';
import { ok, WIRE_ACCOUNT, WIRE_ORDER } from '../../../kit/venue-wire-samples.ts';
import { type FakeVenueWs, startFakeVenueWs } from '../../../kit/venue-ws-server.ts';

const API_KEY = 'live-api-key-123';
const SECRET = 'live-secret-456';

describe('live venue wiring and the recorder tap', () => {
  let http: FakeVenueHttp;
  let privateWs: FakeVenueWs;
  let market: WebSocketServer;
  let venue: LiveVenue;
  let raw: RawVenueMessage[];
  let timer: FakeTimer;

  beforeEach(async () => {
    http = await startFakeVenueHttp((r) =>
      r.path === '/api/v1/trading/account'
        ? { body: ok(WIRE_ACCOUNT) }
        : r.path === '/api/v1/trading/executions/pageable'
          ? { body: ok({ page: 1, pageSize: 100, totalSize: 0, list: [] }) }
          : r.path === '/api/v1/trading/marginLoan/loan/info'
            ? { body: ok({ ltv: '0', loans: [] }) }
            : { body: ok([]) },
    );
    privateWs = await startFakeVenueWs();
    market = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => market.once('listening', () => resolve()));
    raw = [];
    timer = fakeTimer();
    venue = createLiveVenue({
      restUrl: http.url,
      privateWsUrl: privateWs.url,
      marketDataUrl: `ws://127.0.0.1:${(market.address() as AddressInfo).port}/marketdata/v2/public`,
      signer: hmacSigner(API_KEY, SECRET),
      binaryMarketData: false,
      timer,
      random: { next: () => 0.5 },
      logger: pino({ level: 'silent' }),
      onRaw: (message) => raw.push(message),
    });
  });
  afterEach(async () => {
    await venue.stop();
    for (const client of market.clients) client.terminate();
    await new Promise<void>((resolve) => market.close(() => resolve()));
    await privateWs.close();
    await http.close();
  });

  it('records every inbound frame and REST reply, and never a key, secret or signature', async () => {
    const user: UserEvent[] = [];
    const quotes: MarketEvent[] = [];
    venue.execution.events.subscribe((e) => user.push(e));
    venue.marketData.events.subscribe((e) => quotes.push(e));
    await venue.start();
    await waitFor(() => user.some((e) => e.kind === 'account'), 'reconciliation');
    // A BBO of a sym not subscribed to would be dropped as unexpected.
    venue.marketData.subscribe({ channel: 'BBO', sym: 'BINANCE_PERP_BTC_USDT' });
    privateWs.push({ channel: 'Orders', data: [WIRE_ORDER] });
    for (const client of market.clients) {
      client.send(
        JSON.stringify({
          arg: { channel: 'BBO', sym: 'BINANCE_PERP_BTC_USDT' },
          data: { bid: '1', bidqty: '1', ask: '2', askqty: '1', ts: 1 },
        }),
      );
    }
    await waitFor(() => user.some((e) => e.kind === 'order') && quotes.length === 1, 'push and quote');

    const sources = new Set(raw.map((m) => m.source));
    expect(sources).toEqual(new Set(['private', 'market', 'rest']));
    const text = JSON.stringify(raw);
    expect(raw.some((m) => m.source === 'private' && m.text.includes('"channel":"Orders"'))).toBe(true);
    expect(raw.some((m) => m.source === 'rest' && m.path === '/api/v1/trading/account')).toBe(true);
    const loginSign = JSON.parse(privateWs.frames[0] ?? '{}').args.sign as string;
    const restSignature = http.requests[0]?.headers.signature as string;
    for (const secret of [API_KEY, SECRET, loginSign, restSignature]) expect(text).not.toContain(secret);
    expect(loginSign).toBe(
      createHmac('sha256', SECRET)
        .update(`${JSON.parse(privateWs.frames[0] ?? '{}').args.timestamp}GET/users/self/verify`)
        .digest('hex'),
    );
    expect(venue.counters.private.pushes).toBe(1);
    expect(venue.counters.market.pushes).toBe(1);
    // The executions already on the venue (one page), then reconciliation's six snapshot
    // queries (orders, algo orders, positions, account, loan info and loan config) and its
    // executions page.
    expect(venue.counters.rest.replies).toBe(8);
    expect(venue.counters.rest.malformed).toBe(0);
  });

  it('reads the trading account to re-learn the venue clock before logging in again after a login refused with 60009', async () => {
    const steps: string[] = [];
    const handler = http.handler;
    http.handler = (request) => {
      steps.push(`${request.method} ${request.path}`);
      return handler(request);
    };
    let logins = 0;
    privateWs.onLogin = () => {
      logins++;
      steps.push(`login ${logins === 1 ? 60009 : 0}`);
      return logins === 1 ? 60009 : 0;
    };
    await expect(venue.start()).rejects.toMatchObject({ code: 60009 });
    await advanceUntil(timer, () => logins === 2, 'the next login', 500, 200);
    const refused = steps.indexOf('login 60009');
    expect(steps.slice(refused, steps.indexOf('login 0'))).toContain('GET /api/v1/trading/account');
  });

  // A stopping session that knew the outcome of every command still waited for a REST request
  // the venue never answered (a cancel's lost reply) until its deadline and a second more.
  it('ends the REST requests under way at once when told they may take no time, whatever the sockets may', async () => {
    const user: UserEvent[] = [];
    venue.execution.events.subscribe((e) => user.push(e));
    await venue.start();
    await waitFor(() => user.some((e) => e.kind === 'account'), 'reconciliation');
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const handler = http.handler;
    http.handler = (request) =>
      request.path === '/api/v1/trading/account'
        ? { body: ok(WIRE_ACCOUNT), heldUntil: held }
        : handler(request);
    const asked = http.requests.length;
    const read = venue.rest.getTradingAccount().then(
      () => 'answered',
      (error: Error) => error.message,
    );
    await waitFor(() => http.requests.length > asked, 'the read under way');
    // Sockets may take a minute to close (beyond this test's limit), requests no time at all.
    await venue.stop(60_000, 0);
    expect(await read).toMatch(/destroyed/);
    release();
  }, 10_000);
});
