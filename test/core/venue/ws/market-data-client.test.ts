import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { WebSocketServer } from 'ws';
import type { MarketEvent, VenueStatus } from '../../../../core/model/index.ts';
import {
  ClientClosedError,
  MarketDataClient,
  type RawInboundFrame,
  ServerClock,
  VenueTimeoutError,
} from '../../../../core/venue/index.ts';
import { type FakeTimer, fakeTimer } from '../../../kit/venue-fake-timer.ts';
import { advanceUntil, waitFor } from '../../../kit/venue-wait.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
const bbo = (bid: string, ts: number) => ({
  arg: { channel: 'BBO', sym: SYM },
  data: { bid, bidqty: '1.5', ask: '60001', askqty: '2', ts },
});

describe('market-data WebSocket client', () => {
  let server: WebSocketServer;
  let url: string;
  let received: Array<{ text: string; query: string }>;
  let sockets: WebSocket[];
  let timer: FakeTimer;
  let clients: MarketDataClient[];
  /** Upgrade requests received, and how many of the next ones to leave unanswered (a hung handshake). */
  let upgrades: number;
  let hangUpgrades: number;
  let hung: Socket[];

  const start = (binary: boolean, onRaw?: (raw: RawInboundFrame) => void) => {
    const client = new MarketDataClient({
      url,
      binary,
      timer,
      random: { next: () => 0 },
      heartbeatMs: 20_000,
      silentHeartbeats: 2,
      reconnect: { baseMs: 100, capMs: 1_000 },
      logger: pino({ level: 'silent' }),
      ...(onRaw === undefined ? {} : { onRaw }),
    });
    clients.push(client);
    return client;
  };
  const send = (frame: object | string, gzip: boolean) => {
    const text = typeof frame === 'string' ? frame : JSON.stringify(frame);
    for (const socket of sockets) socket.send(gzip ? gzipSync(text) : text, { binary: gzip });
  };

  beforeEach(async () => {
    received = [];
    sockets = [];
    clients = [];
    upgrades = 0;
    hangUpgrades = 0;
    hung = [];
    timer = fakeTimer(1_700_000_000_000);
    server = new WebSocketServer({
      host: '127.0.0.1',
      port: 0,
      verifyClient: (info, accept) => {
        upgrades++;
        if (hangUpgrades === 0) return accept(true);
        hangUpgrades--;
        hung.push(info.req.socket);
      },
    });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/marketdata/v2/public`;
    server.on('connection', (socket, request) => {
      sockets.push(socket);
      socket.on('close', () => sockets.splice(sockets.indexOf(socket), 1));
      socket.on('message', (data) =>
        received.push({ text: String(data), query: new URL(request.url ?? '/', 'http://x').search }),
      );
    });
  });
  afterEach(async () => {
    for (const client of clients) await client.close();
    for (const socket of sockets) socket.terminate();
    for (const socket of hung) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('does not open after close() was called (a stop during start-up wins): connect() fails with ClientClosedError', async () => {
    const client = start(false);
    await client.close();
    await expect(client.connect()).rejects.toBeInstanceOf(ClientClosedError);
    await new Promise((r) => setTimeout(r, 100));
    expect(upgrades).toBe(0);
  });

  it('subscribes per channel and sym, decodes gzip frames into events, and unsubscribes', async () => {
    const client = start(true);
    const events: MarketEvent[] = [];
    client.events.subscribe((e) => events.push(e));
    await client.connect();
    client.subscribe({ channel: 'BBO', sym: SYM });
    client.subscribe({ channel: 'KLINE', sym: SYM, interval: '1m' });
    await waitFor(() => received.length === 2, 'two subscriptions');
    expect(JSON.parse(received[0]?.text ?? '')).toEqual({
      event: 'subscribe',
      arg: [{ channel: 'BBO', sym: SYM }],
    });
    expect(JSON.parse(received[1]?.text ?? '')).toEqual({
      event: 'subscribe',
      arg: [{ channel: 'KLINE', sym: SYM, interval: '1m' }],
    });
    expect(received[0]?.query).toBe('');
    send(bbo('60000', 1_700_000_000_001), true);
    await waitFor(() => events.length === 1, 'quote');
    expect(events[0]).toMatchObject({ kind: 'quote', sym: SYM, bid: 60000, ask: 60001, bidQty: 1.5 });
    client.unsubscribe({ channel: 'BBO', sym: SYM });
    await waitFor(() => received.length === 3, 'unsubscribe');
    expect(JSON.parse(received[2]?.text ?? '')).toEqual({
      event: 'unsubscribe',
      arg: [{ channel: 'BBO', sym: SYM }],
    });
  });

  it('asks for plain text frames with ?binary=false and decodes them', async () => {
    const client = start(false);
    const events: MarketEvent[] = [];
    client.events.subscribe((e) => events.push(e));
    await client.connect();
    client.subscribe({ channel: 'BBO', sym: SYM });
    await waitFor(() => received.length === 1, 'subscription');
    expect(received[0]?.query).toBe('?binary=false');
    send(bbo('59999.5', 1), false);
    await waitFor(() => events.length === 1, 'quote');
    expect(events[0]).toMatchObject({ bid: 59999.5 });
  });

  it('answers the venue {"ping"} with {"pong"} and sends its own ping every interval', async () => {
    const client = start(true);
    await client.connect();
    send({ ping: 123 }, true);
    await waitFor(() => received.some((r) => r.text === '{"pong":123}'), 'pong');
    await timer.advance(20_000);
    await waitFor(() => received.some((r) => r.text === `{"ping":${timer.now()}}`), 'client ping');
    expect(client.counters.heartbeats).toBe(1);
  });

  it('counts malformed frames (bad gzip, bad JSON, bad fields) and a refused subscription without crashing', async () => {
    const client = start(true);
    const events: MarketEvent[] = [];
    client.events.subscribe((e) => events.push(e));
    await client.connect();
    client.subscribe({ channel: 'BBO', sym: SYM });
    for (const socket of sockets) socket.send(Buffer.from('not gzip'), { binary: true });
    send('{"arg":', true);
    send({ arg: { channel: 'BBO', sym: SYM }, data: { bid: 'x' } }, true);
    send({ event: 'error', code: 11100, msg: 'invalid symbol' }, true);
    send(bbo('1', 2), true);
    await waitFor(() => events.length === 1, 'the good frame');
    expect(client.counters).toMatchObject({ frames: 5, malformed: 3, control: 1, pushes: 1 });
  });

  it('counts a BBO of a sym not subscribed to (dropped) and a crossed BBO (delivered) as unexpected, each kind logged once', async () => {
    const lines: string[] = [];
    const client = new MarketDataClient({
      url,
      binary: true,
      timer,
      random: { next: () => 0 },
      heartbeatMs: 20_000,
      logger: pino({ level: 'warn' }, { write: (line: string) => lines.push(line) }),
    });
    clients.push(client);
    const events: MarketEvent[] = [];
    client.events.subscribe((e) => events.push(e));
    await client.connect();
    client.subscribe({ channel: 'BBO', sym: SYM });
    send({ ...bbo('1', 1), arg: { channel: 'BBO', sym: 'UNKNOWN_SYM' } }, true);
    send({ ...bbo('1', 2), arg: { channel: 'BBO', sym: 'OTHER_SYM' } }, true);
    send(bbo('200000', 3), true);
    send(bbo('200001', 4), true);
    send(bbo('59999', 5), true);
    await waitFor(() => events.length === 3, 'the crossed and the good BBOs');
    expect(events.map((e) => (e.kind === 'quote' ? `${e.sym} ${e.bid}` : e.kind))).toEqual([
      `${SYM} 200000`,
      `${SYM} 200001`,
      `${SYM} 59999`,
    ]);
    expect(client.counters).toMatchObject({ frames: 5, unexpected: 4, pushes: 1, malformed: 0 });
    const warned = lines.map((line) => JSON.parse(line) as { msg: string; problem?: string });
    expect(
      warned.filter((w) => w.msg.startsWith('unexpected market-data frame (')).map((w) => w.problem),
    ).toEqual([
      'BBO of a sym not subscribed to (dropped), got UNKNOWN_SYM',
      `crossed BBO, bid above ask (delivered), got ${SYM} bid 200000 ask 60001`,
    ]);
  });

  it('after a reconnect resubscribes everything and emits a gap per sym from the drop time', async () => {
    const raw: RawInboundFrame[] = [];
    const client = start(true, (r) => raw.push(r));
    const events: MarketEvent[] = [];
    client.events.subscribe((e) => events.push(e));
    await client.connect();
    client.subscribe({ channel: 'BBO', sym: SYM });
    client.subscribe({ channel: 'TRADE', sym: SYM });
    client.subscribe({ channel: 'MARK_PRICE', sym: 'OKX_PERP_ETH_USDT' });
    await waitFor(() => received.length === 3, 'subscriptions');
    const droppedAt = timer.now();
    for (const socket of sockets) socket.terminate();
    await waitFor(() => sockets.length === 0, 'drop');
    await new Promise((resolve) => setTimeout(resolve, 20));
    await timer.advance(50);
    await waitFor(() => received.length === 4, 'resubscription');
    expect(JSON.parse(received[3]?.text ?? '')).toEqual({
      event: 'subscribe',
      arg: [
        { channel: 'BBO', sym: SYM },
        { channel: 'TRADE', sym: SYM },
        { channel: 'MARK_PRICE', sym: 'OKX_PERP_ETH_USDT' },
      ],
    });
    expect(events.filter((e) => e.kind === 'gap').map((e) => [e.sym, e.kind === 'gap' && e.fromTs])).toEqual([
      [SYM, droppedAt],
      ['OKX_PERP_ETH_USDT', droppedAt],
    ]);
    send(bbo('2', 3), true);
    await waitFor(() => raw.length === 1, 'recorded frame');
    expect(JSON.parse(raw[0]?.text ?? '')).toEqual(bbo('2', 3));
  });

  /** Subscribes `client` to BBO, drops its socket and waits for the gap it reports. */
  async function gapAfterDrop(client: MarketDataClient) {
    clients.push(client);
    const events: MarketEvent[] = [];
    const statuses: VenueStatus[] = [];
    client.events.subscribe((e) => events.push(e));
    client.status.subscribe((s) => statuses.push(s));
    await client.connect();
    client.subscribe({ channel: 'BBO', sym: SYM });
    await waitFor(() => received.length === 1, 'subscription');
    for (const socket of sockets) socket.terminate();
    await waitFor(() => statuses.some((s) => s.state === 'down'), 'drop');
    await timer.advance(50);
    await waitFor(() => events.some((e) => e.kind === 'gap'), 'the gap');
    const gap = events.find((e) => e.kind === 'gap');
    if (gap?.kind !== 'gap') throw new Error('no gap');
    return { gap, statuses };
  }

  it("stamps its gaps and status changes on the venue's clock it is given, not the machine's", async () => {
    const venueBehindMs = 2 * 365 * 86_400_000;
    const serverClock = new ServerClock(timer, pino({ level: 'silent' }));
    serverClock.observe(new Date(timer.now() - venueBehindMs).toUTCString(), timer.now(), timer.now());
    const client = new MarketDataClient({
      url,
      timer,
      serverClock,
      random: { next: () => 0 },
      reconnect: { baseMs: 100, capMs: 1_000 },
      logger: pino({ level: 'silent' }),
    });
    const { gap, statuses } = await gapAfterDrop(client);
    const onVenueTime = (ts: number) => Math.abs(ts - (timer.now() - venueBehindMs)) <= 1_000;
    expect([gap.fromTs, gap.ts, gap.recvTs].map(onVenueTime)).toEqual([true, true, true]);
    expect(statuses.map((s) => [s.state, onVenueTime(s.ts)])).toEqual([
      ['up', true],
      ['down', true],
      ['up', true],
    ]);
  });

  it("stamps its gaps and status changes on the event clock it is given (a paper session's replay), not the venue's Date", async () => {
    const sessionAt = Date.UTC(2025, 0, 6, 14, 0, 0);
    const client = new MarketDataClient({
      url,
      timer,
      serverClock: new ServerClock(timer, pino({ level: 'silent' })),
      eventClock: () => sessionAt,
      random: { next: () => 0 },
      reconnect: { baseMs: 100, capMs: 1_000 },
      logger: pino({ level: 'silent' }),
    });
    const { gap, statuses } = await gapAfterDrop(client);
    expect([gap.fromTs, gap.ts, gap.recvTs]).toEqual([sessionAt, sessionAt, sessionAt]);
    expect(statuses.map((s) => [s.state, s.ts])).toEqual([
      ['up', sessionAt],
      ['down', sessionAt],
      ['up', sessionAt],
    ]);
  });

  it('drops a socket silent for two heartbeat intervals (no frame, no pong), reconnects, resubscribes and reports the gap', async () => {
    const client = start(true);
    const events: MarketEvent[] = [];
    const statuses: VenueStatus[] = [];
    client.events.subscribe((e) => events.push(e));
    client.status.subscribe((s) => statuses.push(s));
    await client.connect();
    const connectedAt = timer.now();
    client.subscribe({ channel: 'BBO', sym: SYM });
    await waitFor(() => received.length === 1, 'subscription');
    await timer.advance(20_000);
    await waitFor(() => received.length === 2, 'first ping');
    expect(sockets).toHaveLength(1);
    await timer.advance(20_000);
    await waitFor(() => statuses.length === 2, 'the stall reported');
    expect(statuses[1]).toMatchObject({ stream: 'market', state: 'down' });
    expect(statuses[1]?.reason).toContain('silent for 40000 ms');
    await waitFor(() => sockets.length === 0, 'the stalled socket dropped');
    await new Promise((resolve) => setTimeout(resolve, 20));
    await timer.advance(100);
    await waitFor(() => received.length === 3, 'resubscription');
    expect(JSON.parse(received[2]?.text ?? '')).toEqual({
      event: 'subscribe',
      arg: [{ channel: 'BBO', sym: SYM }],
    });
    expect(events.filter((e) => e.kind === 'gap')).toEqual([
      expect.objectContaining({ kind: 'gap', sym: SYM, fromTs: connectedAt }),
    ]);
    expect(statuses.map((s) => s.state)).toEqual(['up', 'down', 'up']);
    expect(statuses[2]?.reason).toMatch(/^reconnected and resubscribed; \d+ ms of data missed$/);
  });

  it('keeps a quiet socket that answers its pings', async () => {
    const client = start(true);
    const statuses: VenueStatus[] = [];
    client.status.subscribe((s) => statuses.push(s));
    await client.connect();
    for (let ping = 1; ping <= 4; ping++) {
      await timer.advance(20_000);
      await waitFor(() => received.length === ping, `ping ${ping}`);
      send({ pong: timer.now() }, true);
      await waitFor(() => client.counters.heartbeats === ping, `pong ${ping}`);
    }
    expect(statuses.map((s) => s.state)).toEqual(['up']);
    expect(sockets).toHaveLength(1);
  });

  it('takes the number of silent heartbeat intervals from its options', async () => {
    const client = new MarketDataClient({
      url,
      timer,
      random: { next: () => 0 },
      heartbeatMs: 1_000,
      silentHeartbeats: 5,
      reconnect: { baseMs: 100, capMs: 1_000 },
      logger: pino({ level: 'silent' }),
    });
    clients.push(client);
    const statuses: VenueStatus[] = [];
    client.status.subscribe((s) => statuses.push(s));
    await client.connect();
    await timer.advance(4_000);
    expect(statuses.map((s) => s.state)).toEqual(['up']);
    await timer.advance(1_000);
    await waitFor(() => statuses.length === 2, 'the stall reported');
    expect(statuses[1]?.reason).toContain('5 heartbeat intervals');
  });

  it('drops a silent socket 15 s after its last frame by default (a ping every 5 s, 3 silent intervals)', async () => {
    const client = new MarketDataClient({
      url,
      timer,
      random: { next: () => 0 },
      reconnect: { baseMs: 100, capMs: 1_000 },
      logger: pino({ level: 'silent' }),
    });
    clients.push(client);
    const statuses: VenueStatus[] = [];
    client.status.subscribe((s) => statuses.push(s));
    await client.connect();
    await timer.advance(14_999);
    await waitFor(() => received.length === 2, 'two pings');
    expect(statuses.map((s) => s.state)).toEqual(['up']);
    await timer.advance(1);
    await waitFor(() => statuses.length === 2, 'the stall reported');
    expect(statuses[1]?.reason).toBe('silent for 15000 ms (3 heartbeat intervals without a frame or pong)');
  });

  it('counts the silence from the last frame: the stall is found at the limit, not at the heartbeat after it', async () => {
    const client = start(true);
    const statuses: VenueStatus[] = [];
    client.status.subscribe((s) => statuses.push(s));
    await client.connect();
    await timer.advance(10_000);
    send({ pong: timer.now() }, true);
    await waitFor(() => client.counters.heartbeats === 1, 'the frame');
    await timer.advance(39_999);
    expect(statuses.map((s) => s.state)).toEqual(['up']);
    await timer.advance(1);
    await waitFor(() => statuses.length === 2, 'the stall reported');
    expect(statuses[1]?.reason).toContain('silent for 40000 ms');
  });

  it('says the data missed over a reconnect in whole ms on a clock with fractions', async () => {
    // A fraction on the clock from the drop on: the reconnect reads it, the drop's time did not.
    let statusCount = 0;
    const client = new MarketDataClient({
      url,
      timer,
      eventClock: () => timer.now() + (statusCount < 2 ? 0 : 0.987581),
      random: { next: () => 0 },
      heartbeatMs: 1_000,
      silentHeartbeats: 2,
      reconnect: { baseMs: 100, capMs: 1_000 },
      logger: pino({ level: 'silent' }),
    });
    clients.push(client);
    const statuses: VenueStatus[] = [];
    client.status.subscribe((s) => {
      statuses.push(s);
      statusCount++;
    });
    await client.connect();
    for (const socket of sockets) socket.terminate();
    await waitFor(() => statuses.length === 2, 'the drop reported');
    await timer.advance(100);
    await waitFor(() => statuses.length === 3, 'the reconnect reported');
    expect(statuses[2]?.reason).toMatch(/^reconnected and resubscribed; \d+ ms of data missed$/);
  });

  it('abandons a reconnect whose upgrade never completes after 10 s (the default) and reconnects with backoff', async () => {
    const client = start(true);
    const statuses: VenueStatus[] = [];
    client.status.subscribe((s) => statuses.push(s));
    await client.connect();
    client.subscribe({ channel: 'BBO', sym: SYM });
    await waitFor(() => received.length === 1, 'subscription');
    hangUpgrades = 1;
    for (const socket of sockets) socket.terminate();
    await waitFor(() => statuses.length === 2, 'the drop reported');
    await timer.advance(50);
    await waitFor(() => upgrades === 2, 'the reconnect reaching the venue');
    await timer.advance(9_999);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(upgrades).toBe(2);
    await timer.advance(1);
    await advanceUntil(timer, () => received.length === 2, 'the resubscription after the abandoned attempt');
    expect(upgrades).toBe(3);
    expect(statuses.map((s) => s.state)).toEqual(['up', 'down', 'up']);
  });

  it('fails a connect whose upgrade never completes with VenueTimeoutError after openTimeoutMs, and keeps trying', async () => {
    const client = new MarketDataClient({
      url,
      timer,
      random: { next: () => 0 },
      openTimeoutMs: 3_000,
      reconnect: { baseMs: 100, capMs: 1_000 },
      logger: pino({ level: 'silent' }),
    });
    clients.push(client);
    hangUpgrades = 1;
    const connecting = client.connect().catch((e: unknown) => e);
    await waitFor(() => upgrades === 1, 'the upgrade reaching the venue');
    await timer.advance(3_000);
    const error = await connecting;
    expect(error).toBeInstanceOf(VenueTimeoutError);
    expect((error as VenueTimeoutError).message).toBe(
      'market-data WebSocket opening handshake got no answer within 3000 ms',
    );
    await advanceUntil(timer, () => sockets.length === 1, 'the next attempt opening');
    expect(upgrades).toBe(2);
  });
});
