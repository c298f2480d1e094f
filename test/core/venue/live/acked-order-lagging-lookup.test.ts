import { afterEach, describe, expect, it } from 'vitest';
import type { Order } from '../../../../core/model/index.ts';
import { LOOKED_UP_UNKNOWN_REASON } from '../../../../core/venue/live/unknown-order-lookups.ts';
import { approved } from '../../../kit/approved-intents.ts';
import { aLimitOrder } from '../../../kit/intent-builders.ts';
import {
  liveClientOnScriptedVenue,
  type ScriptedVenueClient,
} from '../../../kit/live-client-on-scripted-venue.ts';
import { advanceUntil, waitFor } from '../../../kit/venue-wait.ts';
import { WIRE_ORDER } from '../../../kit/venue-wire-samples.ts';

/** The reason of an order Keel's lookups gave up on. */
const LOOKED_UP = new RegExp(`^${LOOKED_UP_UNKNOWN_REASON}: \\d+ "not found" over 30 s of lookups$`);

/**
 * The venue acks an order (NEW) on the socket, then the socket drops before the venue's REST read
 * side lists it (a read model a few hundred ms behind the matching engine: the very lag the
 * unacked-order policy waits 30 s and 3 lookups for). The reconnect's snapshot does not list it
 * open and ONE lookup answers 401018; the next lookups would find it OPEN.
 * A correct client must not end an order the venue ACKNOWLEDGED on one "not found" (it is live:
 * ending it frees the risk gate and tells the strategy to re-place), and must end with it open.
 */
describe('timing: acked order, reconnect snapshot taken before the venue REST side lists it', () => {
  let h: ScriptedVenueClient;
  afterEach(async () => h?.stop());

  it('keeps an acknowledged order open when one lookup during reconciliation says not found, and reports it as the next lookup finds it', async () => {
    h = await liveClientOnScriptedVenue();
    const orderEvents = (ref: string): Order[] =>
      h.events.flatMap((e) => (e.kind === 'order' && e.order.clientOrderId === ref ? [e.order] : []));
    h.live.submit(approved(aLimitOrder({ ref: 'c-new' })));
    await waitFor(() => orderEvents('c-new').length === 1, 'the ack');
    expect(orderEvents('c-new')[0]).toMatchObject({ orderState: 'NEW' });

    // The socket drops right after the ack. The venue's REST side lags: the first lookup misses it.
    const live = {
      ...WIRE_ORDER,
      orderId: orderEvents('c-new')[0]?.orderId,
      clientOrderId: 'c-new',
      orderQty: '1',
      limitPrice: '100',
      orderState: 'OPEN',
      updateAt: 1_700_000_000_100,
    };
    let lookups = 0;
    h.state.extra = (r) => {
      if (r.path === '/api/v1/trading/order' && r.query.clientOrderId === 'c-new') {
        lookups++;
        if (lookups === 1) return { body: { code: 401018, message: 'order not found' } };
        return { body: { code: 0, message: 'success', data: live } };
      }
      return undefined;
    };
    h.ws.dropAll();
    await advanceUntil(h.timer, () => h.ws.logins === 2, 'second login');
    await waitFor(() => h.events.filter((e) => e.kind === 'account').length === 2, 'the reconciliation');
    expect(lookups).toBe(1);
    // Kept open after one "not found": no verdict, nothing the strategy would act on.
    expect(orderEvents('c-new').map((o) => o.orderState)).toEqual(['NEW']);
    // The read side catches up; the next lookup, 200 ms later, finds the order open.
    await advanceUntil(h.timer, () => orderEvents('c-new').length === 2, 'the next lookup', 100, 20);
    expect(lookups).toBe(2);
    expect(orderEvents('c-new')[1]).toMatchObject({ orderState: 'OPEN' });
    expect(orderEvents('c-new')[1]?.synthesized).toBeUndefined();
    expect(h.live.forgottenOrderWarnings).toEqual([]);
    // And it is looked up no more.
    for (let i = 0; i < 60; i++) await h.timer.advance(1_000);
    expect(lookups).toBe(2);
  });

  it('ends it CANCELLED, with the warning that the venue forgot it, only after 3 "not found" over 30 s', async () => {
    h = await liveClientOnScriptedVenue();
    const orderEvents = (ref: string): Order[] =>
      h.events.flatMap((e) => (e.kind === 'order' && e.order.clientOrderId === ref ? [e.order] : []));
    h.live.submit(approved(aLimitOrder({ ref: 'c-gone' })));
    await waitFor(() => orderEvents('c-gone').length === 1, 'the ack');
    const lookupTimes: number[] = [];
    h.state.extra = (r) => {
      if (r.path === '/api/v1/trading/order') lookupTimes.push(h.timer.now());
      return undefined;
    };
    h.ws.dropAll();
    await advanceUntil(h.timer, () => h.ws.logins === 2, 'second login');
    await waitFor(() => lookupTimes.length === 1, 'the first lookup');
    await advanceUntil(h.timer, () => orderEvents('c-gone').length === 2, 'the verdict', 500, 200);
    const verdict = orderEvents('c-gone')[1];
    expect(verdict).toMatchObject({
      orderState: 'CANCELLED',
      synthesized: true,
      reason: expect.stringMatching(LOOKED_UP),
    });
    expect(lookupTimes.length).toBeGreaterThanOrEqual(3);
    expect((lookupTimes.at(-1) ?? 0) - (lookupTimes[0] ?? 0)).toBeGreaterThanOrEqual(30_000);
    expect(h.live.forgottenOrderWarnings).toHaveLength(1);
    expect(h.live.forgottenOrderWarnings[0]).toMatch(/did not know 1 order it had acknowledged \(c-gone\)/);
  });
});
