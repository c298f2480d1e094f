import { afterEach, describe, expect, it } from 'vitest';
import type { Order } from '../../../../core/model/index.ts';
import { approved } from '../../../kit/approved-intents.ts';
import { FILLED_REF, filledUnheard, sequenceOf } from '../../../kit/filled-while-down.ts';
import { aLimitOrder } from '../../../kit/intent-builders.ts';
import {
  liveClientOnScriptedVenue,
  type ScriptedVenueClient,
} from '../../../kit/live-client-on-scripted-venue.ts';
import { advanceUntil, waitFor } from '../../../kit/venue-wait.ts';
import { WIRE_ORDER } from '../../../kit/venue-wire-samples.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';

/**
 * A client places `c-f` (acknowledged, OPEN), then the venue fills it and the pushes of the fill
 * are lost while the socket stays up: the venue's order lookup answers FILLED, its execution
 * history lists the fill `t-f`, and it no longer lists the order open.
 */
async function filledUnseen(opts: { readonly reconcileEveryMs?: number } = {}): Promise<ScriptedVenueClient> {
  const h = await liveClientOnScriptedVenue({}, opts);
  h.state.executions = [await filledUnheard(h)];
  return h;
}

describe('live execution client: User Data pushes lost while the socket stays up', () => {
  let h: ScriptedVenueClient;
  afterEach(async () => h?.stop());

  it('fetches the fills and reports the state of an order a lookup shows further than its pushes told (a modify refused as already final)', async () => {
    h = await filledUnseen();
    const found = await h.live.lookupOrder(SYM, FILLED_REF);
    expect(found?.orderState).toBe('FILLED');
    await advanceUntil(h.timer, () => sequenceOf(h, FILLED_REF).length === 3, 'the catch-up', 100, 50);
    expect(sequenceOf(h, FILLED_REF)).toEqual(['order NEW', 'fill t-f', 'order FILLED']);
  }, 30_000);

  it('asks nothing more of a lookup that shows the order as Keel holds it', async () => {
    h = await liveClientOnScriptedVenue();
    h.live.submit(approved(aLimitOrder({ ref: 'c-o' })));
    await waitFor(() => sequenceOf(h, 'c-o').length === 1, 'the ack');
    const ack = h.events.find((e) => e.kind === 'order') as { order: Order };
    h.state.ordersByRef.set('c-o', { ...WIRE_ORDER, orderId: ack.order.orderId, clientOrderId: 'c-o' });
    const snapshots = h.http.requests.filter((r) => r.path === '/api/v1/trading/orders').length;
    await h.live.lookupOrder(SYM, 'c-o');
    await h.timer.advance(1_000);
    expect(h.http.requests.filter((r) => r.path === '/api/v1/trading/orders').length).toBe(snapshots);
  }, 30_000);

  it('catches up a fill nobody looked up at the next periodic reconciliation', async () => {
    h = await filledUnseen({ reconcileEveryMs: 5_000 });
    await advanceUntil(
      h.timer,
      () => sequenceOf(h, FILLED_REF).length === 3,
      'the periodic reconciliation',
      500,
      30,
    );
    expect(sequenceOf(h, FILLED_REF)).toEqual(['order NEW', 'fill t-f', 'order FILLED']);
  }, 30_000);
});
