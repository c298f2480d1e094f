import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listFeed, type PaperVenue } from '../../../../backtest/paper-venue/index.ts';
import type { UserEvent } from '../../../../core/model/index.ts';
import {
  createInboundCounters,
  hmacSigner,
  LiveExecutionClient,
  PrivateWsClient,
  ServerClock,
  VenueRestClient,
} from '../../../../core/venue/index.ts';
import {
  EXECUTION_SWEEP_MIN,
  type LocalTradingView,
} from '../../../../core/venue/live/local-trading-view.ts';
import { aPaperVenue } from '../../../kit/paper-venue-builders.ts';
import { bboPush, type CollectingSocket, loggedIn } from '../../../kit/paper-venue-client.ts';
import { type FakeTimer, fakeTimer } from '../../../kit/venue-fake-timer.ts';

/**
 * `keel venue --speed 5` on 127.0.0.1 (an ephemeral port), its data starting now, against Keel's
 * real REST and private-socket clients. The venue and Keel share one injected wall clock, moved by
 * the test, so a long sped-up run takes seconds; the sockets and HTTP are real.
 */
const BTC = 'BINANCE_PERP_BTC_USDT';
const SPEED = 5;
const START = Math.floor(Date.now() / 1000) * 1000;
/** A BTC quote every 500 ms of the replay, for three hours of it. */
const QUOTES = Array.from({ length: 21_600 }, (_, i) => bboPush(BTC, '100.0', '100.1', START + i * 500));

interface Rig {
  readonly wall: FakeTimer;
  readonly venue: PaperVenue;
  readonly serverClock: ServerClock;
  readonly rest: VenueRestClient;
  readonly live: LiveExecutionClient;
  readonly events: UserEvent[];
  readonly restCounters: ReturnType<typeof createInboundCounters>;
  /** How many times the private socket was reconciled (after the start and each reconnect). */
  readonly reconciled: () => number;
  /** What Keel logged at warn or above. */
  readonly warnings: string[];
}

const opened: { venue?: PaperVenue; live?: LiveExecutionClient; sockets: CollectingSocket[] } = {
  sockets: [],
};
afterEach(async () => {
  for (const socket of opened.sockets.splice(0)) await socket.close();
  await opened.live?.stop(1_000);
  await opened.venue?.close();
  opened.live = undefined;
  opened.venue = undefined;
});

async function realPause(ms = 5): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/** Moves the shared wall clock by `ms` in steps of `stepMs`, letting the sockets breathe between. */
async function run(wall: FakeTimer, ms: number, stepMs = 1_000): Promise<void> {
  for (let done = 0; done < ms; done += stepMs) {
    await wall.advance(Math.min(stepMs, ms - done));
    await realPause(1);
  }
}

/** Waits (moving the wall clock 100 ms at a time) until `check` holds. */
async function until(wall: FakeTimer, check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await wall.advance(100);
    await realPause(5);
  }
}

async function startRig(): Promise<Rig> {
  const wall = fakeTimer(START);
  const venue = await aPaperVenue({
    feed: listFeed(QUOTES),
    pacing: { mode: 'realtime', speed: SPEED },
    timer: wall,
    rateLimits: { wsPlaceOrder: { max: 1_000_000, windowMs: 60_000 } },
  });
  opened.venue = venue;
  await venue.feed.until(1);
  const warnings: string[] = [];
  const logger = pino(
    { level: 'warn' },
    { write: (line: string) => warnings.push((JSON.parse(line) as { msg: string }).msg) },
  );
  const signer = hmacSigner(venue.apiKey, venue.apiSecret);
  const serverClock = new ServerClock(wall, logger);
  const restCounters = createInboundCounters();
  const rest = new VenueRestClient({
    baseUrl: venue.restUrl,
    signer,
    serverClock,
    timer: wall,
    logger,
    counters: restCounters,
  });
  const ws = new PrivateWsClient({
    url: venue.privateWsUrl,
    signer,
    serverClock,
    timer: wall,
    logger,
    requestTimeoutMs: 60_000,
    reconnect: { baseMs: 50, capMs: 100 },
    refreshServerClock: () => rest.getTradingAccount(),
  });
  const live = new LiveExecutionClient({ rest, ws, timer: wall, logger, lookupSpacingMs: 50 });
  opened.live = live;
  const events: UserEvent[] = [];
  live.events.subscribe((event) => events.push(event));
  let reconciled = 0;
  live.status.subscribe((status) => {
    if (status.state === 'reconciled') reconciled++;
  });
  let started = false;
  const starting = live.start().then(() => {
    started = true;
  });
  await until(wall, () => started, 'the start');
  await starting;
  return {
    wall,
    venue,
    serverClock,
    rest,
    live,
    events,
    restCounters,
    reconciled: () => reconciled,
    warnings,
  };
}

/** A raw order-entry socket of the account, logged in on the venue's clock. */
async function orderEntry(venue: PaperVenue): Promise<CollectingSocket> {
  const socket = await loggedIn(venue.privateWsUrl, venue, true, Math.floor(venue.replayNow() / 1000));
  opened.sockets.push(socket);
  return socket;
}

/** Places `count` market orders (buy, sell, buy...) on `socket`, each answered before the next batch. */
async function fills(rig: Rig, socket: CollectingSocket, count: number, everyMs: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await rig.wall.advance(everyMs);
    const id = `f${rig.events.length}-${i}`;
    socket.send({
      action: 'place_order',
      id,
      args: {
        sym: BTC,
        side: i % 2 === 0 ? 'BUY' : 'SELL',
        orderType: 'MARKET',
        orderQty: '1',
        clientOrderId: id,
      },
    });
    if (i % 50 === 49 || i === count - 1) await socket.waitFor((f) => f?.id === id);
    if (i % 10 === 9) socket.send('ping');
  }
}

const executionsOf = (events: readonly UserEvent[]): number =>
  events.filter((e) => e.kind === 'execution').length;

const seenExecutions = (live: LiveExecutionClient): number =>
  (live as unknown as { localView: LocalTradingView }).localView.state().seenExecutionIds?.size ?? 0;

describe('Keel against a paper venue replaying at 5x real time', () => {
  it('signs REST requests and logs in on the venue clock it follows between replies, none refused', async () => {
    const rig = await startRig();
    // A quiet wall minute: the venue's clock moves five.
    await run(rig.wall, 60_000);
    expect(Math.abs(rig.serverClock.now() - rig.venue.replayNow())).toBeLessThan(2_000);
    const controlBefore = rig.restCounters.control;
    await rig.rest.getTradingAccount();
    expect(rig.restCounters.control).toBe(controlBefore);
    // A reconnect logs in with a timestamp from the estimate: accepted at the first attempt.
    rig.venue.faults.dropConnections('private');
    await until(rig.wall, () => rig.reconciled() >= 2, 'the re-login');
    expect(rig.warnings.filter((w) => /login refused/.test(w))).toEqual([]);
    // Keel noticed the rate and settled on the venue's clock once, not at every reply.
    expect(rig.warnings.filter((w) => w.includes("the venue's clock differs")).length).toBeLessThanOrEqual(1);
    // Its Date headers bear the stated rate out: it is never dropped for real time.
    expect(rig.serverClock.rate).toBe(SPEED);
    expect(rig.warnings.filter((w) => w.includes('move at real time'))).toEqual([]);
    // And a client signing on the venue's Date clock is accepted, as its replay's clock is the one.
    const socket = await orderEntry(rig.venue);
    expect(socket).toBeDefined();
  }, 60_000);

  it('asks the catch-up after a reconnect for about the last minute of executions, not the whole run', async () => {
    const rig = await startRig();
    const socket = await orderEntry(rig.venue);
    await fills(rig, socket, 120, 1_000);
    await until(rig.wall, () => executionsOf(rig.events) >= 120, 'the fills');
    const lastFill = Math.max(
      ...rig.events.flatMap((e) => (e.kind === 'execution' ? [e.execution.timestamp] : [])),
    );
    const begins: unknown[] = [];
    const getPage = rig.rest.getExecutionsPage.bind(rig.rest);
    vi.spyOn(rig.rest, 'getExecutionsPage').mockImplementation(((query: { begin?: number }) => {
      begins.push(query.begin);
      return getPage(query);
    }) as never);
    rig.venue.faults.dropConnections('private');
    await until(rig.wall, () => begins.length > 0, 'the catch-up');
    // Two wall minutes were ten of the replay's: the catch-up starts a minute before the last fill.
    expect(lastFill - START).toBeGreaterThan(500_000);
    expect(begins[0]).toBeGreaterThanOrEqual(lastFill - 60_000 - 2_000);
    expect(begins[0]).toBeLessThanOrEqual(lastFill - 60_000);
  }, 60_000);

  it('keeps the seen-execution set bounded over a long sped-up run', async () => {
    const rig = await startRig();
    const socket = await orderEntry(rig.venue);
    // 3000 fills, one every 100 ms of the wall clock (500 ms of the replay): 25 replay minutes.
    await fills(rig, socket, 3_000, 100);
    await until(rig.wall, () => executionsOf(rig.events) >= 3_000, 'the fills');
    expect(seenExecutions(rig.live)).toBeLessThanOrEqual(EXECUTION_SWEEP_MIN);
  }, 120_000);
});
