import { afterEach, describe, expect, it } from 'vitest';
import { UNREADABLE_ORDER_REASON } from '../../../../core/execution/index.ts';
import type { Intent, Order, UserEvent } from '../../../../core/model/index.ts';
import type { ApprovedIntent } from '../../../../core/risk/index.ts';
import { aLimitOrder } from '../../../kit/intent-builders.ts';
import {
  dropAndReconcile,
  type LiveClientOnFakeVenue,
  liveClientOnFakeVenue,
} from '../../../kit/live-client-on-fake-venue.ts';
import { advanceUntil, waitFor } from '../../../kit/venue-wait.ts';
import { ok, WIRE_ORDER } from '../../../kit/venue-wire-samples.ts';

const approved = (intent: Intent) => ({ strategyId: 's1', intent }) as ApprovedIntent;

const lastOrder = (events: readonly UserEvent[], orderId: string): Order | undefined =>
  events.flatMap((e) => (e.kind === 'order' && e.order.orderId === orderId ? [e.order] : [])).at(-1);

describe('live execution client: looking up an order the venue no longer lists', () => {
  let rig: LiveClientOnFakeVenue;
  afterEach(async () => rig?.close());

  it('looks an order placed without a clientOrderId (by hand) up by its orderId, and reports it FILLED', async () => {
    rig = await liveClientOnFakeVenue();
    const { clientOrderId: _none, ...manual } = { ...WIRE_ORDER, orderId: 'o-manual' };
    const filled = { ...manual, orderState: 'FILLED', executedQty: '0.010', updateAt: 1_700_000_001_000 };
    rig.special = (r) => {
      // Either orderId or clientOrderId (VENUE-NOTES); an empty reference is refused.
      if (r.path !== '/api/v1/trading/order') return undefined;
      if (r.query.orderId === 'o-manual') return { body: ok(filled) };
      if (!r.query.clientOrderId && r.query.orderId === undefined)
        return { body: { code: 400001, message: 'orderId or clientOrderId required' } };
      return { body: { code: 401018, message: 'order not found' } };
    };
    rig.ws.push({ channel: 'Orders', data: [manual] });
    await waitFor(() => lastOrder(rig.events, 'o-manual') !== undefined, 'the push');
    const statuses = await dropAndReconcile(rig);
    expect({
      lookups: rig.calls('/api/v1/trading/order').map((r) => r.query),
      state: lastOrder(rig.events, 'o-manual')?.orderState,
      status: statuses.at(-1)?.state,
    }).toEqual({ lookups: [{ orderId: 'o-manual' }], state: 'FILLED', status: 'reconciled' });
  }, 60_000);

  it('ends an order whose lookup the venue refuses for good (400001) CANCELLED, so trading resumes', async () => {
    rig = await liveClientOnFakeVenue();
    rig.special = (r) =>
      r.path === '/api/v1/trading/order' ? { body: { code: 400001, message: 'bad parameters' } } : undefined;
    rig.ws.push({
      channel: 'Orders',
      data: [{ ...WIRE_ORDER, orderId: 'o-refused', clientOrderId: 'c-refused' }],
    });
    await waitFor(() => lastOrder(rig.events, 'o-refused') !== undefined, 'the push');
    const statuses = await dropAndReconcile(rig);
    expect(statuses.at(-1)?.state).toBe('reconciled');
    expect(lastOrder(rig.events, 'o-refused')).toMatchObject({
      orderState: 'CANCELLED',
      synthesized: true,
      reason: expect.stringMatching(new RegExp(`^${UNREADABLE_ORDER_REASON}: .*400001`)),
    });
  }, 60_000);
});

describe('live execution client: an order whose ack never came and whose lookup fails for good', () => {
  let rig: LiveClientOnFakeVenue;
  afterEach(async () => rig?.close());

  it('ends it REJECTED once, with the reason, and stops looking it up', async () => {
    rig = await liveClientOnFakeVenue();
    rig.ws.onRequest = () => undefined;
    rig.special = (r) =>
      r.path === '/api/v1/trading/order' ? { body: { code: 400001, message: 'bad parameters' } } : undefined;
    rig.live.submit(approved(aLimitOrder({ ref: 'c-unread' })));
    const verdicts = () =>
      rig.events.flatMap((e) =>
        e.kind === 'order' && e.order.clientOrderId === 'c-unread' ? [e.order] : [],
      );
    await advanceUntil(rig.timer, () => verdicts().length > 0, 'the verdict', 500, 20);
    await advanceUntil(rig.timer, () => false, '30 s more', 1_000, 30).catch(() => undefined);
    expect({
      lookups: rig.calls('/api/v1/trading/order').length,
      places: rig.ws.requests.filter((r) => r.action === 'place_order').length,
    }).toEqual({ lookups: 1, places: 1 });
    expect(verdicts()).toEqual([
      expect.objectContaining({
        orderState: 'REJECTED',
        synthesized: true,
        reason: expect.stringMatching(
          /^no ack, and the lookup of order .*c-unread.* failed for good: .*400001/,
        ),
      }),
    ]);
  }, 60_000);
});
