import { afterEach, describe, expect, it } from 'vitest';
import { isNewerOrderUpdate } from '../../../../core/execution/index.ts';
import type { Order } from '../../../../core/model/index.ts';
import { approved } from '../../../kit/approved-intents.ts';
import { aLimitOrder } from '../../../kit/intent-builders.ts';
import {
  liveClientOnScriptedVenue,
  type ScriptedVenueClient,
} from '../../../kit/live-client-on-scripted-venue.ts';
import { waitFor } from '../../../kit/venue-wait.ts';
import { WIRE_ORDER } from '../../../kit/venue-wire-samples.ts';

/**
 * The venue acks a place (NEW), rests the order a moment later and pushes OPEN, stamped with its
 * own time. The ack took longer to arrive than the order took to rest (a few ms of network), so
 * the OPEN's updateAt is EARLIER than Keel's receipt time, which the ack (built from the intent:
 * the ack carries no time) is stamped with. The kernel folds venue updates by isNewerOrderUpdate
 * (order-registry.ts applyVenue): same executedQty, so the ack must rank below the venue's update.
 */
describe('timing: ack stamped on receipt vs the venue-stamped OPEN push that follows it', () => {
  let h: ScriptedVenueClient;
  afterEach(async () => h?.stop());

  it('lets the venue OPEN push after the ack win in the kernel fold', async () => {
    h = await liveClientOnScriptedVenue();
    const orderEvents = (ref: string): Order[] =>
      h.events.flatMap((e) => (e.kind === 'order' && e.order.clientOrderId === ref ? [e.order] : []));
    h.live.submit(approved(aLimitOrder({ ref: 'c-ack' })));
    await waitFor(() => orderEvents('c-ack').length === 1, 'the ack');
    const ack = orderEvents('c-ack')[0] as Order;
    expect(ack).toMatchObject({ orderState: 'NEW', synthesized: true });
    // The venue rested the order 5 ms before its ack reached Keel; its push follows the ack.
    h.ws.push({
      channel: 'Orders',
      ts: ack.updateAt - 5,
      data: [
        {
          ...WIRE_ORDER,
          orderId: ack.orderId,
          clientOrderId: 'c-ack',
          orderQty: '1',
          limitPrice: '100',
          orderState: 'OPEN',
          action: 'PLACE',
          createAt: ack.updateAt - 8,
          updateAt: ack.updateAt - 5,
        },
      ],
    });
    await waitFor(() => orderEvents('c-ack').length === 2, 'the OPEN push');
    const open = orderEvents('c-ack')[1] as Order;
    expect(open).toMatchObject({ orderState: 'OPEN', updateAt: ack.updateAt - 5 });
    // What the kernel's order registry does with the push (applyVenue -> isNewerOrderUpdate).
    expect(isNewerOrderUpdate(ack, open)).toBe(true);
    expect(isNewerOrderUpdate(open, ack)).toBe(false);
  });
});
