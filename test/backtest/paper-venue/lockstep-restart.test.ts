import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  listFeed,
  type PaperVenue,
  type PaperVenueOptions,
  SNAPSHOT_FILE,
} from '../../../backtest/paper-venue/index.ts';
import { D } from '../../../core/model/index.ts';
import { aPaperVenue, closedAfterEachTest, T0 } from '../../kit/paper-venue-builders.ts';
import {
  aaplBuyArgs,
  bboPush,
  type CollectingSocket,
  loggedIn,
  openCollecting,
  type PaperEndpoint,
  signedRest,
} from '../../kit/paper-venue-client.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
// Directories first: after-each hooks run last-registered first, so each venue closes before its directory goes.
const aDataDir = tempDirsRemovedAfterEach('paper-venue-lockstep-');
const opened = closedAfterEachTest();

/** The client's timer: between the second BTC quote (T0 + 1) and the third (T0 + 5000). */
const WAKE_AT = T0 + 2500;

/** AAPL first (nobody subscribes to it), then BTC quotes the test acknowledges one by one. */
const FEED = [
  bboPush('US_EQUITY_AAPL', '190.00', '190.02', T0, '500'),
  bboPush(BTC, '100.0', '100.1', T0 + 1),
  bboPush(BTC, '98.9', '99.0', T0 + 5000),
];

const MAIN = { portfolioId: 'PAPER-MAIN', apiKey: 'main-key', apiSecret: 'main-secret' };
const SUB = { portfolioId: 'PAPER-SUB', apiKey: 'sub-key', apiSecret: 'sub-secret' };

function lockstepVenue(dataDir: string, overrides: Partial<PaperVenueOptions> = {}): Promise<PaperVenue> {
  return aPaperVenue({
    ...overrides,
    pacing: { mode: 'lockstep' },
    feed: listFeed(FEED),
    dataDir,
    portfolios: [
      { ...MAIN, startingBalances: { USDT: D(100_000) } },
      { ...SUB, startingBalances: { USD: D(100_000) } },
    ],
  });
}

function endpoint(venue: PaperVenue, who: typeof MAIN): PaperEndpoint {
  return { restUrl: venue.restUrl, apiKey: who.apiKey, apiSecret: who.apiSecret };
}

/** A market-data socket subscribed to BTC quotes (so each waits for an ack) and main's private socket. */
async function lockstepClient(
  venue: PaperVenue,
): Promise<{ market: CollectingSocket; priv: CollectingSocket }> {
  const market = await openCollecting(`${venue.marketDataWsUrl}?binary=false`);
  opened.sockets.push(market);
  market.send({ event: 'subscribe', arg: [{ channel: 'BBO', sym: BTC }] });
  await market.waitFor((f) => f?.event === 'subscribe');
  const priv = await loggedIn(venue.privateWsUrl, endpoint(venue, MAIN), true);
  opened.sockets.push(priv);
  return { market, priv };
}

/**
 * Runs the feed up to the tick at {@link WAKE_AT}, the sub-portfolio holding a TIME order on AAPL
 * that the venue sends at T0 + 1000 (before the tick, after the last event released).
 * @returns the client, its ack of the tick still to come
 */
async function upToTheTick(venue: PaperVenue) {
  const client = await lockstepClient(venue);
  client.priv.send({ action: 'lockstep_ack', args: { seq: 0 } });
  await client.market.waitFor((f) => f?.seq === 2);
  const sub = await loggedIn(venue.privateWsUrl, endpoint(venue, SUB));
  opened.sockets.push(sub);
  sub.send({
    action: 'PLACE_ORDER',
    id: 'time',
    args: aaplBuyArgs({
      brokerClientId: SUB.portfolioId,
      reference: 'sent-at-1000',
      conditionCode: 'TIME',
      // New York time of T0 + 1000 ms: after hours, so the order says it may trade then.
      timeToSend: '2025-12-31 19:00:01',
      extendedTrading: true,
    }),
  });
  expect(await sub.waitFor((f) => f?.event === 'PLACE_ORDER_ACK')).toMatchObject({ code: 0 });
  client.priv.send({ action: 'lockstep_ack', args: { seq: 2, wakeAt: WAKE_AT, tick: 0 } });
  expect(await client.market.waitFor((f) => f?.event === 'lockstep_time')).toMatchObject({ time: WAKE_AT });
  expect(venue.now()).toBe(WAKE_AT);
  return client;
}

/** What a client sends at the tick: a markup on the sub-portfolio and a BTC buy that takes the ask. */
async function commandsAtTheTick(venue: PaperVenue): Promise<void> {
  const markup = await signedRest(endpoint(venue, MAIN), 'POST', '/api/v1/broker/subFeeRate', {
    subPortfolioId: SUB.portfolioId,
    markup: '5',
  });
  expect(markup.body.code).toBe(0);
  const buy = await signedRest(endpoint(venue, MAIN), 'POST', '/api/v1/trading/order', {
    sym: BTC,
    side: 'BUY',
    orderType: 'LIMIT',
    orderQty: '1',
    limitPrice: '100.1',
    clientOrderId: 'on-tick',
  });
  expect(buy.body.code).toBe(0);
}

/** Acknowledges the tick and the last event: the feed runs to its end. */
async function toTheEnd(venue: PaperVenue, client: { market: CollectingSocket; priv: CollectingSocket }) {
  client.priv.send({ action: 'lockstep_ack', args: { seq: 2, wakeAt: null, tick: 1 } });
  await client.market.waitFor((f) => f?.seq === 3);
  client.priv.send({ action: 'lockstep_ack', args: { seq: 3 } });
  await venue.feed.until(4);
}

/** Every portfolio's orders, executions, positions and loans and its account, as the venue closes. */
async function finalState(venue: PaperVenue, dataDir: string) {
  const accounts = [];
  for (const who of [MAIN, SUB])
    accounts.push((await signedRest(endpoint(venue, who), 'GET', '/api/v1/trading/account')).body.data);
  await venue.close();
  opened.venue = undefined;
  const { view, virtualNow, released } = JSON.parse(readFileSync(join(dataDir, SNAPSHOT_FILE), 'utf8'));
  return { view, virtualNow, released, accounts };
}

describe('paper venue restart after lockstep ticks', () => {
  it('rebuilds what ran at a tick at the tick time, timers due before it first, as the run that went on', async () => {
    const goneOn = aDataDir();
    const first = await lockstepVenue(goneOn);
    opened.venue = first;
    const client = await upToTheTick(first);
    await commandsAtTheTick(first);
    await toTheEnd(first, client);
    const expected = await finalState(first, goneOn);
    const sub = expected.view.find((p: { portfolioId: string }) => p.portfolioId === SUB.portfolioId);
    const main = expected.view.find((p: { portfolioId: string }) => p.portfolioId === MAIN.portfolioId);
    // The TIME order went at its time, before the tick: the markup set at the tick did not apply to it.
    expect(sub.executions).toEqual([expect.objectContaining({ timestamp: T0 + 1000, fee: '0.35' })]);
    expect(main.executions).toEqual([expect.objectContaining({ price: '100.1', timestamp: WAKE_AT })]);

    const interrupted = aDataDir();
    const crashed = aDataDir();
    const before = await lockstepVenue(interrupted, { persistDebounceMs: 3_600_000 });
    opened.venue = before;
    await upToTheTick(before);
    await commandsAtTheTick(before);
    // What the disk holds when the process dies at the tick: no snapshot yet, the command log only.
    cpSync(interrupted, crashed, { recursive: true });
    await before.close();
    opened.venue = undefined;
    for (const socket of opened.sockets.splice(0)) await socket.close();
    const after = await lockstepVenue(crashed);
    opened.venue = after;
    expect(after.now()).toBe(WAKE_AT);
    const client2 = await lockstepClient(after);
    client2.priv.send({ action: 'lockstep_ack', args: { seq: 2 } });
    await client2.market.waitFor((f) => f?.seq === 3);
    client2.priv.send({ action: 'lockstep_ack', args: { seq: 3 } });
    await after.feed.until(4);
    expect(await finalState(after, crashed)).toEqual(expected);
  });

  it('restarts at the tick time when it closed at a tick the client sent nothing at', async () => {
    const dataDir = aDataDir();
    const first = await lockstepVenue(dataDir);
    opened.venue = first;
    const client = await lockstepClient(first);
    client.priv.send({ action: 'lockstep_ack', args: { seq: 0 } });
    await client.market.waitFor((f) => f?.seq === 2);
    client.priv.send({ action: 'lockstep_ack', args: { seq: 2, wakeAt: WAKE_AT, tick: 0 } });
    await client.market.waitFor((f) => f?.event === 'lockstep_time');
    await first.close();
    opened.venue = undefined;
    for (const socket of opened.sockets.splice(0)) await socket.close();

    const second = await lockstepVenue(dataDir);
    opened.venue = second;
    expect(second.feed.released).toBe(2);
    expect(second.now()).toBe(WAKE_AT);
  });
});
