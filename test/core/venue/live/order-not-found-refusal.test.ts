import { afterEach, describe, expect, it } from 'vitest';
import type { UserEvent } from '../../../../core/model/index.ts';
import { approved } from '../../../kit/approved-intents.ts';
import { aLimitOrder } from '../../../kit/intent-builders.ts';
import { type LiveClientOnFakeVenue, liveClientOnFakeVenue } from '../../../kit/live-client-on-fake-venue.ts';
import { advanceUntil, waitFor } from '../../../kit/venue-wait.ts';
import { WIRE_ORDER } from '../../../kit/venue-wire-samples.ts';

let rig: LiveClientOnFakeVenue | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const BTC = 'BINANCE_PERP_BTC_USDT';
const lookups = (r: LiveClientOnFakeVenue) =>
  r.calls('/api/v1/trading/order').filter((q) => q.method === 'GET' && q.query.clientOrderId === 'buy-1');
const updatesOf = (events: readonly UserEvent[], ref: string) =>
  events.flatMap((e) => (e.kind === 'order' && e.order.clientOrderId === ref ? [e.order] : []));

/**
 * A venue that acknowledges the place of buy-1 (o-1) and then refuses its cancel as "order not
 * found" (401018): the order's fate is unknown (the venue's read side lags, it ended, or the venue
 * lost it), so it must be looked up, never left open on Keel's last word.
 */
async function ackedThenCancelRefusedAsUnknown(r: LiveClientOnFakeVenue): Promise<void> {
  r.ws.onRequest = (request) =>
    request.action === 'place_order'
      ? {
          event: request.action,
          id: request.id,
          code: 0,
          message: 'success',
          data: { orderId: 'o-1', clientOrderId: request.args.clientOrderId },
        }
      : { event: request.action, id: request.id, code: 401018, message: 'order not found' };
  r.live.submit(approved(aLimitOrder({ ref: 'buy-1' })));
  await waitFor(() => updatesOf(r.events, 'buy-1').length === 1, 'the ack');
  r.live.submit(approved({ kind: 'cancelOrder', ref: 'cx-1', sym: BTC, target: 'buy-1' }));
  await waitFor(() => r.events.some((e) => e.kind === 'commandRejected'), 'the refusal');
}

describe('a cancel of an acknowledged order refused as not found (401018)', () => {
  it('looks the order up and reports what the venue says of it', async () => {
    rig = await liveClientOnFakeVenue();
    const r = rig;
    await ackedThenCancelRefusedAsUnknown(r);
    r.holdings.orders = [{ ...WIRE_ORDER, clientOrderId: 'buy-1', orderId: 'o-1', orderState: 'FILLED' }];
    await advanceUntil(
      r.timer,
      () => updatesOf(r.events, 'buy-1').length === 2,
      'the lookup’s answer',
      250,
      40,
    );
    expect(updatesOf(r.events, 'buy-1').map((o) => o.orderState)).toEqual(['NEW', 'FILLED']);
    expect(lookups(r).length).toBeGreaterThan(0);
  });

  it('ends it CANCELLED, with the warning that the venue forgot it, when the venue still does not know it after 30 s', async () => {
    rig = await liveClientOnFakeVenue();
    const r = rig;
    await ackedThenCancelRefusedAsUnknown(r);
    await advanceUntil(r.timer, () => updatesOf(r.events, 'buy-1').length === 2, 'the verdict', 1_000, 60);
    expect(updatesOf(r.events, 'buy-1').at(-1)).toMatchObject({ orderState: 'CANCELLED', synthesized: true });
    expect(lookups(r).length).toBeGreaterThanOrEqual(2);
    expect(r.live.forgottenOrderWarnings).toHaveLength(1);
  });
});
