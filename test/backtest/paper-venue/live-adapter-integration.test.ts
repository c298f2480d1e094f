import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { PaperVenue } from '../../../backtest/paper-venue/index.ts';
import { D, type UserEvent } from '../../../core/model/index.ts';
import {
  hmacSigner,
  LiveExecutionClient,
  PrivateWsClient,
  realTimer,
  ServerClock,
  VenueRestClient,
} from '../../../core/venue/index.ts';
import { approved } from '../../kit/approved-intents.ts';
import { aPaperVenue, withFirstQuotes } from '../../kit/paper-venue-builders.ts';
import { signedRest } from '../../kit/paper-venue-client.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
let venue: PaperVenue | undefined;
let client: LiveExecutionClient | undefined;

afterEach(async () => {
  await client?.stop();
  client = undefined;
  await venue?.close();
  venue = undefined;
});

async function connected(v: PaperVenue): Promise<{ events: UserEvent[]; live: LiveExecutionClient }> {
  const signer = hmacSigner(v.apiKey, v.apiSecret);
  const serverClock = new ServerClock(realTimer(), pino({ level: 'silent' }));
  const live = new LiveExecutionClient({
    rest: new VenueRestClient({ baseUrl: v.restUrl, signer, serverClock }),
    ws: new PrivateWsClient({
      url: v.privateWsUrl,
      signer,
      serverClock,
      requestTimeoutMs: 300,
      reconnect: { baseMs: 50, capMs: 100 },
    }),
    lookupSpacingMs: 50,
  });
  client = live;
  const events: UserEvent[] = [];
  live.events.subscribe((e) => events.push(e));
  await live.start();
  return { events, live };
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 3000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const buy = (ref: string, price: string) =>
  approved({
    kind: 'placeOrder',
    ref,
    sym: BTC,
    side: 'BUY',
    orderType: 'LIMIT',
    qty: D(1),
    price: D(price),
    timeInForce: 'GTC',
    reduceOnly: false,
    positionSide: 'NONE',
  });

describe('live venue adapter against the paper venue', () => {
  it('places, modifies and cancels an order, and receives a fill', async () => {
    const v = await aPaperVenue();
    venue = v;
    await withFirstQuotes(v);
    const { events, live } = await connected(v);
    live.submit(buy('it-1', '95.0'));
    await until(
      () => events.some((e) => e.kind === 'order' && e.order.clientOrderId === 'it-1'),
      'the order',
    );
    live.submit(approved({ kind: 'modifyOrder', ref: 'm', target: 'it-1', sym: BTC, price: D('96.0') }));
    await until(
      () =>
        events.some(
          (e) => e.kind === 'order' && e.order.clientOrderId === 'it-1' && e.order.limitPrice.eq(96),
        ),
      'the amendment',
    );
    live.submit(approved({ kind: 'cancelOrder', ref: 'c', target: 'it-1', sym: BTC }));
    await until(
      () =>
        events.some(
          (e) => e.kind === 'order' && e.order.clientOrderId === 'it-1' && e.order.orderState === 'CANCELLED',
        ),
      'the cancel',
    );
    live.submit(buy('it-2', '99.0'));
    await until(
      () => events.some((e) => e.kind === 'order' && e.order.clientOrderId === 'it-2'),
      'the second order',
    );
    v.feed.step(1);
    await until(
      () => events.some((e) => e.kind === 'execution' && e.execution.clientOrderId === 'it-2'),
      'the fill',
    );
  });

  it("logs in, reconciles and trades when this machine's clock is 3 minutes behind the venue's", async () => {
    const wall = realTimer();
    const v = await aPaperVenue({ timer: { ...wall, now: () => wall.now() + 180_000 } });
    venue = v;
    await withFirstQuotes(v);
    const { events, live } = await connected(v);
    live.submit(buy('skew-1', '95.0'));
    await until(
      () =>
        events.some(
          (e) => e.kind === 'order' && e.order.clientOrderId === 'skew-1' && e.order.orderState === 'OPEN',
        ),
      'the order',
    );
    const venueSeconds = Math.floor((wall.now() + 180_000) / 1000);
    const open = await signedRest(v, 'GET', '/api/v1/trading/orders', {}, { nonceSeconds: venueSeconds });
    expect((open.body.data as Array<{ clientOrderId: string }>).map((o) => o.clientOrderId)).toEqual([
      'skew-1',
    ]);
  });

  it('never duplicates an order when its ack is withheld', async () => {
    const v = await aPaperVenue();
    venue = v;
    await withFirstQuotes(v);
    const { events, live } = await connected(v);
    v.faults.withholdNextAck();
    live.submit(buy('lost-ack', '95.0'));
    await until(
      () =>
        events.some(
          (e) => e.kind === 'order' && e.order.clientOrderId === 'lost-ack' && e.order.orderId !== '',
        ),
      'the order found by lookup',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    // A re-sent order would be a second order (new reference) or a 406010 rejection (same reference).
    const history = await signedRest(v, 'GET', '/api/v1/trading/history/orders');
    expect((history.body.data as { totalSize: number }).totalSize).toBe(1);
    const states = events.flatMap((e) =>
      e.kind === 'order' && e.order.clientOrderId === 'lost-ack' ? [e.order.orderState] : [],
    );
    expect(states).not.toContain('REJECTED');
  });

  it('survives a dropped connection: the fill it missed comes back through reconciliation', async () => {
    const v = await aPaperVenue();
    venue = v;
    await withFirstQuotes(v);
    const { events } = await connected(v);
    client?.submit(buy('rc-1', '99.0'));
    await until(
      () => events.some((e) => e.kind === 'order' && e.order.clientOrderId === 'rc-1'),
      'the order',
    );
    v.faults.dropConnections('private');
    v.feed.step(1);
    await v.feed.until(3);
    await until(
      () =>
        events.some(
          (e) => e.kind === 'order' && e.order.clientOrderId === 'rc-1' && e.order.orderState === 'FILLED',
        ),
      'the filled state after reconnect',
    );
    await until(
      () => events.some((e) => e.kind === 'position' && e.position.positionQty.eq(1)),
      'the position from the snapshot',
    );
    const history = await signedRest(v, 'GET', '/api/v1/trading/history/orders');
    expect((history.body.data as { totalSize: number }).totalSize).toBe(1);
  });
});
