import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { Intent, Order, UserEvent } from '../../../../core/model/index.ts';
import type { ApprovedIntent } from '../../../../core/risk/index.ts';
import {
  hmacSigner,
  LiveExecutionClient,
  PrivateWsClient,
  VenueRestClient,
} from '../../../../core/venue/index.ts';
import { aLimitOrder } from '../../../kit/intent-builders.ts';
import {
  dropAndReconcile,
  type LiveClientOnFakeVenue,
  liveClientOnFakeVenue,
} from '../../../kit/live-client-on-fake-venue.ts';
import { fakeTimer } from '../../../kit/venue-fake-timer.ts';
import { startFakeVenueHttp } from '../../../kit/venue-http-server.ts';
import { waitFor } from '../../../kit/venue-wait.ts';
import { ok, page, WIRE_ACCOUNT, WIRE_ASSET, WIRE_ORDER } from '../../../kit/venue-wire-samples.ts';
import { startFakeVenueWs } from '../../../kit/venue-ws-server.ts';

const approved = (intent: Intent) => ({ strategyId: 's1', intent }) as ApprovedIntent;
const SYM = 'BINANCE_PERP_BTC_USDT';

const lastOrder = (events: readonly UserEvent[], clientOrderId: string): Order | undefined =>
  events
    .flatMap((e) => (e.kind === 'order' && e.order.clientOrderId === clientOrderId ? [e.order] : []))
    .at(-1);

describe('live execution client: an order in a state the public venue docs do not list', () => {
  let rig: LiveClientOnFakeVenue;
  afterEach(async () => rig?.close());

  it('ends a Keel IOC order the venue ended EXPIRED: the push is dropped, the reconciliation after a reconnect ends it CANCELLED and trading resumes', async () => {
    rig = await liveClientOnFakeVenue();
    const expired = {
      ...WIRE_ORDER,
      orderId: 'o-ioc',
      clientOrderId: 'c-ioc',
      timeInForce: 'IOC',
      orderState: 'EXPIRED',
    };
    rig.special = (r) =>
      r.path === '/api/v1/trading/order' && r.query.clientOrderId === 'c-ioc'
        ? { body: ok(expired) }
        : undefined;
    rig.live.submit(approved(aLimitOrder({ ref: 'c-ioc' })));
    await waitFor(() => lastOrder(rig.events, 'c-ioc') !== undefined, 'the ack');
    rig.ws.push({ channel: 'Orders', data: [expired] });
    await waitFor(() => rig.privateWs.counters.malformed === 1, 'the push counted malformed');
    const statuses = await dropAndReconcile(rig);
    expect({ logins: rig.ws.logins, last: statuses.at(-1)?.state }).toEqual({
      logins: 2,
      last: 'reconciled',
    });
    expect(lastOrder(rig.events, 'c-ioc')).toMatchObject({
      orderState: 'CANCELLED',
      synthesized: true,
      reason: expect.stringContaining('orderState EXPIRED'),
    });
  }, 60_000);

  it('reads a lookup answer in an unknown state against the open orders: open while listed, ended once not', async () => {
    rig = await liveClientOnFakeVenue();
    const triggered = { ...WIRE_ORDER, orderId: 'o-t', clientOrderId: 'c-t', orderState: 'TRIGGERED' };
    rig.special = (r) =>
      r.path === '/api/v1/trading/order' && r.query.clientOrderId === 'c-t'
        ? { body: ok(triggered) }
        : undefined;
    rig.holdings.orders = [triggered];
    expect(await rig.live.lookupOrder(SYM, 'c-t')).toMatchObject({ orderState: 'OPEN' });
    rig.holdings.orders = [];
    expect(await rig.live.lookupOrder(SYM, 'c-t')).toMatchObject({
      orderState: 'CANCELLED',
      synthesized: true,
    });
    expect(rig.calls('/api/v1/trading/orders').at(-1)?.query).toMatchObject({ sym: SYM });
  }, 30_000);
});

describe('live execution client: an open order in an unlisted state at the start', () => {
  it('starts, and adopts the order as open rather than fail the whole snapshot', async () => {
    const http = await startFakeVenueHttp((r) => {
      switch (r.path) {
        case '/api/v1/trading/orders':
          return {
            body: ok([
              { ...WIRE_ORDER, orderId: 'o-hand', clientOrderId: 'by-hand', orderState: 'PENDING_NEW' },
            ]),
          };
        case '/api/v1/trading/executions/pageable':
          return { body: ok(page([])) };
        case '/api/v1/trading/account':
          return { body: ok({ ...WIRE_ACCOUNT, assets: [WIRE_ASSET] }) };
        default:
          return { body: ok([]) };
      }
    });
    const ws = await startFakeVenueWs();
    const timer = fakeTimer(1_700_000_000_000);
    const logger = pino({ level: 'silent' });
    const signer = hmacSigner('k', 's');
    const rest = new VenueRestClient({
      baseUrl: http.url,
      signer,
      timer,
      logger,
      retry: { maxRetries: 0, baseMs: 1, capMs: 1 },
    });
    const privateWs = new PrivateWsClient({ url: ws.url, signer, timer, requestTimeoutMs: 1_000, logger });
    const live = new LiveExecutionClient({ rest, ws: privateWs, timer, logger });
    const events: UserEvent[] = [];
    live.events.subscribe((e) => events.push(e));
    try {
      const outcome = await live.start().then(
        () => 'started',
        (e: unknown) => `start failed: ${String(e)}`,
      );
      expect(outcome).toBe('started');
      expect(lastOrder(events, 'by-hand')).toMatchObject({
        orderState: 'OPEN',
        reason: expect.stringContaining('orderState PENDING_NEW'),
      });
    } finally {
      await live.stop();
      await rest.close();
      await ws.close();
      await http.close();
    }
  }, 30_000);
});
