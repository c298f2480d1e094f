import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listFeed, type PaperVenue, type PaperVenueOptions } from '../../../backtest/paper-venue/index.ts';
import type { LatencyOptions } from '../../../backtest/sim/index.ts';
import { aPaperVenue, T0 } from '../../kit/paper-venue-builders.ts';
import { bboPush, type CollectingSocket, loggedIn, signedRest } from '../../kit/paper-venue-client.ts';
import { fakeTimer } from '../../kit/venue-fake-timer.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';

/** Asks 100.1 at T0, 99.0 at T0+100, 99.6 at T0+300, 99.6 again at T0+1000. */
const MOVING_ASK = [
  bboPush(BTC, '100.0', '100.1', T0),
  bboPush(BTC, '98.9', '99.0', T0 + 100),
  bboPush(BTC, '99.5', '99.6', T0 + 300),
  bboPush(BTC, '99.5', '99.6', T0 + 1000),
];

const NONE = { fixedMs: 0, jitterMs: 0 };
const orderEntry = (fixedMs: number, jitterMs = 0): LatencyOptions => ({
  orderEntry: { fixedMs, jitterMs },
  marketData: NONE,
});

let venues: PaperVenue[] = [];
const sockets: CollectingSocket[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const s of sockets.splice(0)) await s.close();
  for (const v of venues.splice(0)) await v.close();
  venues = [];
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function started(overrides: Partial<PaperVenueOptions>, events = 1): Promise<PaperVenue> {
  const venue = await aPaperVenue({ feed: listFeed(MOVING_ASK), ...overrides });
  venues.push(venue);
  venue.feed.step(events);
  await venue.feed.until(events);
  return venue;
}

async function privateSocket(venue: PaperVenue, onlyTrade = true, at?: number): Promise<CollectingSocket> {
  const socket = await loggedIn(venue.privateWsUrl, venue, onlyTrade, at);
  sockets.push(socket);
  return socket;
}

/** Sends a text ping and waits for its pong: every frame the venue sent before it has arrived. */
async function settled(socket: CollectingSocket): Promise<void> {
  const from = socket.frames.length;
  socket.send('ping');
  await socket.waitFor((f) => f === 'pong', 3000, from);
}

async function step(venue: PaperVenue, count = 1): Promise<void> {
  const target = venue.feed.released + count;
  venue.feed.step(count);
  await venue.feed.until(target);
}

const marketBuy = (clientOrderId: string) => ({
  sym: BTC,
  side: 'BUY',
  orderType: 'MARKET',
  orderQty: '1',
  clientOrderId,
});

/** A bid far below the market, which rests. */
const restingBid = (clientOrderId: string) => ({
  sym: BTC,
  side: 'BUY',
  orderType: 'LIMIT',
  orderQty: '1',
  limitPrice: '50.0',
  clientOrderId,
});

describe('paper venue order-entry latency', () => {
  it('matches a REST order only once it reached the matching engine 200 ms later, and replies only then', async () => {
    const venue = await started({ latency: orderEntry(200) });
    let replied = false;
    const placing = signedRest(venue, 'POST', '/api/v1/trading/order', marketBuy('late')).then((reply) => {
      replied = true;
      return reply;
    });
    await vi.waitFor(() => expect(venue.inFlight()).toBe(1));
    await step(venue); // T0+100: the ask drops to 99.0, the order is still on its way
    expect(
      (await signedRest(venue, 'GET', '/api/v1/trading/order', { clientOrderId: 'late' })).body.code,
    ).toBe(401018);
    expect(replied).toBe(false);
    await step(venue); // T0+300: it arrived at T0+200, before this event
    const reply = await placing;
    expect(reply.body).toMatchObject({ code: 0, data: { clientOrderId: 'late' } });
    const order = await signedRest(venue, 'GET', '/api/v1/trading/order', { clientOrderId: 'late' });
    expect(order.body.data).toMatchObject({ orderState: 'FILLED', createAt: T0 + 200 });
    const fills = await signedRest(venue, 'GET', '/api/v1/trading/executions', { sym: BTC });
    expect(fills.body.data).toEqual([expect.objectContaining({ clientOrderId: 'late', price: '99' })]);
  });

  it('without a latency matches the same order at once against the quote of its time (today’s behaviour)', async () => {
    const venue = await started({});
    const reply = await signedRest(venue, 'POST', '/api/v1/trading/order', marketBuy('now'));
    expect(reply.body.code).toBe(0);
    expect(venue.inFlight()).toBe(0);
    const order = await signedRest(venue, 'GET', '/api/v1/trading/order', { clientOrderId: 'now' });
    expect(order.body.data).toMatchObject({ orderState: 'FILLED', createAt: T0 });
    const fills = await signedRest(venue, 'GET', '/api/v1/trading/executions', { sym: BTC });
    expect(fills.body.data).toEqual([expect.objectContaining({ clientOrderId: 'now', price: '100.1' })]);
  });

  it('delays a private WebSocket cancel too: the order it targets can still fill on its way', async () => {
    const venue = await started({ latency: orderEntry(200) });
    const socket = await privateSocket(venue);
    // Placed at T0, it rests until T0+200 at 99.0; the cancel sent right after arrives no earlier.
    socket.send({
      action: 'place_order',
      id: 'p',
      args: {
        sym: BTC,
        side: 'BUY',
        orderType: 'LIMIT',
        orderQty: '1',
        limitPrice: '99.0',
        clientOrderId: 'bid',
      },
    });
    socket.send({ action: 'cancel_order', id: 'c', args: { clientOrderId: 'bid' } });
    await settled(socket);
    expect(venue.inFlight()).toBe(2);
    expect(socket.frames.some((f) => f.includes('"id":"p"'))).toBe(false);
    await step(venue); // T0+100
    await settled(socket);
    expect(socket.frames.some((f) => f.includes('"id":"p"'))).toBe(false);
    await step(venue); // T0+300: both arrive at T0+200, in the order sent; the ask is 99.0 then
    const placed = await socket.waitFor((f) => f?.id === 'p');
    const cancelled = await socket.waitFor((f) => f?.id === 'c');
    expect(placed.code).toBe(0);
    // The order filled on arrival (the ask was at its price), so the cancel lost the race.
    expect(cancelled.code).toBe(401058);
    expect(socket.frames.findIndex((f) => f.includes('"id":"p"'))).toBeLessThan(
      socket.frames.findIndex((f) => f.includes('"id":"c"')),
    );
  });

  it('draws jitter from the seed: the same seed gives the same arrivals, and jitter never reorders commands', async () => {
    const arrivals = async (seed: number): Promise<number[]> => {
      const venue = await started({ latency: orderEntry(0, 400), seed });
      const socket = await privateSocket(venue);
      const refs = Array.from({ length: 12 }, (_, i) => `j${i}`);
      for (const ref of refs) {
        socket.send({
          action: 'place_order',
          id: ref,
          args: restingBid(ref),
        });
      }
      await settled(socket);
      await step(venue, 4); // to the end of the feed: anything still on its way arrives
      for (const ref of refs) await socket.waitFor((f) => f?.id === ref);
      const acks = socket.frames
        .filter((f) => f.startsWith('{'))
        .map((f) => JSON.parse(f))
        .filter((f) => refs.includes(f?.id));
      expect(acks.map((a) => a.id)).toEqual(refs);
      expect(acks.every((a) => a.code === 0)).toBe(true);
      const orders = await signedRest(venue, 'GET', '/api/v1/trading/orders', { sym: BTC });
      const createdAt = new Map(
        (orders.body.data as { clientOrderId: string; createAt: number }[]).map((o) => [
          o.clientOrderId,
          o.createAt,
        ]),
      );
      return refs.map((ref) => (createdAt.get(ref) as number) - T0);
    };
    const first = await arrivals(7);
    expect(await arrivals(7)).toEqual(first);
    expect(await arrivals(8)).not.toEqual(first);
    // Jitter was drawn (not all equal), yet arrivals never go backwards, all within [0, 400).
    expect(new Set(first).size).toBeGreaterThan(1);
    for (let i = 1; i < first.length; i++) expect(first[i]).toBeGreaterThanOrEqual(first[i - 1] as number);
    for (const a of first) expect(a).toBeLessThan(400);
  });

  /** Command `id` is still on its way `ms - 1` ms of the injected clock from now, and answered at `ms`. */
  const answeredAfter = async (
    timer: ReturnType<typeof fakeTimer>,
    venue: PaperVenue,
    socket: CollectingSocket,
    ms: number,
    id: string,
  ): Promise<void> => {
    await timer.advance(ms - 1);
    await settled(socket);
    expect(venue.inFlight()).toBe(1);
    expect(socket.frames.some((f) => f.includes(`"id":"${id}"`))).toBe(false);
    await timer.advance(1);
    expect(await socket.waitFor((f) => f?.id === id)).toMatchObject({ code: 0 });
  };

  /** Signed on the realtime venue's clock (its replay's, from T0), as its `Date` header tells it. */
  const onVenueClock = { nonceSeconds: Math.floor(T0 / 1000) };

  /** A realtime-paced venue with a 200 ms order-entry delay, its first event out, and a private socket. */
  const realtimeVenue = async () => {
    const timer = fakeTimer(Date.now());
    const venue = await aPaperVenue({
      feed: listFeed([bboPush(BTC, '100.0', '100.1', T0), bboPush(BTC, '99.5', '99.6', T0 + 60_000)]),
      pacing: { mode: 'realtime', speed: 1 },
      timer,
      latency: orderEntry(200),
    });
    venues.push(venue);
    await venue.feed.until(1);
    return { timer, venue, socket: await privateSocket(venue, true, onVenueClock.nonceSeconds) };
  };

  it('in realtime pacing runs a command after its delay on the injected clock when no market event comes', async () => {
    const { timer, venue, socket } = await realtimeVenue();
    socket.send({ action: 'place_order', id: 'rt', args: marketBuy('rt') });
    await settled(socket);
    await answeredAfter(timer, venue, socket, 200, 'rt');
    const order = await signedRest(
      venue,
      'GET',
      '/api/v1/trading/order',
      { clientOrderId: 'rt' },
      onVenueClock,
    );
    expect(order.body.data).toMatchObject({ orderState: 'FILLED', createAt: T0 + 200 });
    expect(venue.feed.released).toBe(1);
  });

  it('in realtime pacing counts the delay from the venue time running since the last event', async () => {
    const { timer, venue, socket } = await realtimeVenue();
    await timer.advance(150);
    socket.send({ action: 'place_order', id: 'later', args: marketBuy('later') });
    await settled(socket);
    await answeredAfter(timer, venue, socket, 200, 'later');
    const order = await signedRest(
      venue,
      'GET',
      '/api/v1/trading/order',
      { clientOrderId: 'later' },
      onVenueClock,
    );
    expect(order.body.data).toMatchObject({ createAt: T0 + 350 });
  });

  it('in lockstep runs a command anyway once the client stalled past its delay plus lockstepStallMs', async () => {
    const timer = fakeTimer(Date.now());
    const venue = await aPaperVenue({
      feed: listFeed(MOVING_ASK),
      pacing: { mode: 'lockstep' },
      timer,
      latency: orderEntry(200),
      lockstepStallMs: 1_000,
    });
    venues.push(venue);
    const socket = await privateSocket(venue);
    // No lockstep ack ever comes: the venue's time never moves.
    socket.send({ action: 'place_order', id: 'stalled', args: marketBuy('stalled') });
    await settled(socket);
    await answeredAfter(timer, venue, socket, 1_200, 'stalled');
    expect(venue.feed.released).toBe(0);
  });

  it('lets a command still on its way arrive when the feed ends (venue time stops there)', async () => {
    const venue = await started({ latency: orderEntry(5_000) });
    const socket = await privateSocket(venue);
    socket.send({ action: 'place_order', id: 'last', args: marketBuy('last') });
    await settled(socket);
    await step(venue, 3); // the last event is at T0+1000, before the arrival
    await settled(socket);
    expect(socket.frames.some((f) => f.includes('"id":"last"'))).toBe(false);
    venue.feed.step(1); // nothing left: the feed ends
    expect(await socket.waitFor((f) => f?.id === 'last')).toMatchObject({ code: 0 });
    const order = await signedRest(venue, 'GET', '/api/v1/trading/order', { clientOrderId: 'last' });
    expect(order.body.data).toMatchObject({ orderState: 'FILLED', createAt: T0 + 5_000 });
  });

  it('replays a delayed command at its arrival after a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'paper-latency-'));
    dirs.push(dataDir);
    const first = await started({ latency: orderEntry(200), dataDir });
    const placing = signedRest(first, 'POST', '/api/v1/trading/order', marketBuy('kept'));
    await vi.waitFor(() => expect(first.inFlight()).toBe(1));
    await step(first, 2);
    expect((await placing).body.code).toBe(0);
    await first.close();
    venues = venues.filter((v) => v !== first);

    const second = await aPaperVenue({ feed: listFeed(MOVING_ASK), latency: orderEntry(200), dataDir });
    venues.push(second);
    const order = await signedRest(second, 'GET', '/api/v1/trading/order', { clientOrderId: 'kept' });
    expect(order.body.data).toMatchObject({ orderState: 'FILLED', createAt: T0 + 200 });
    const fills = await signedRest(second, 'GET', '/api/v1/trading/executions', { sym: BTC });
    expect(fills.body.data).toEqual([expect.objectContaining({ clientOrderId: 'kept', price: '99' })]);
  });
});

describe('paper venue User Data latency', () => {
  it('pushes a command’s Orders update 300 ms of venue time after the event, after the reply', async () => {
    const venue = await started({
      latency: { orderEntry: NONE, marketData: NONE, userData: { fixedMs: 300, jitterMs: 0 } },
    });
    const socket = await privateSocket(venue, false);
    socket.send({
      action: 'place_order',
      id: 'ud',
      args: restingBid('ud'),
    });
    expect(await socket.waitFor((f) => f?.id === 'ud')).toMatchObject({ code: 0 });
    const isOrders = (f: string) => f.includes('"channel":"Orders"');
    await settled(socket);
    expect(socket.frames.some(isOrders)).toBe(false);
    await step(venue); // T0+100
    await settled(socket);
    expect(socket.frames.some(isOrders)).toBe(false);
    await step(venue); // T0+300: due at T0+300
    const push = await socket.waitFor((f) => f?.channel === 'Orders');
    expect(push.data[0]).toMatchObject({ clientOrderId: 'ud' });
    expect(push.ts).toBe(T0);
  });

  it('sends pushes at once without a User Data leg (today’s behaviour)', async () => {
    const venue = await started({ latency: orderEntry(0) });
    const socket = await privateSocket(venue, false);
    socket.send({
      action: 'place_order',
      id: 'now',
      args: restingBid('now'),
    });
    await socket.waitFor((f) => f?.channel === 'Orders');
    expect(venue.feed.released).toBe(1);
  });
});
