import { afterEach, describe, expect, it } from 'vitest';
import { COMMAND_NOT_APPLIED, D, type Order, type UserEvent } from '../../../../core/model/index.ts';
import { LOOKED_UP_UNKNOWN_REASON } from '../../../../core/venue/live/unknown-order-lookups.ts';
import { approved } from '../../../kit/approved-intents.ts';
import { aLimitOrder } from '../../../kit/intent-builders.ts';
import {
  dropAndReconcile,
  type LiveClientOnFakeVenue,
  liveClientOnFakeVenue,
} from '../../../kit/live-client-on-fake-venue.ts';
import { waitFor } from '../../../kit/venue-wait.ts';

/** The reason of an order Keel's lookups gave up on. */
const LOOKED_UP = new RegExp(`^${LOOKED_UP_UNKNOWN_REASON}: \\d+ "not found" over 30 s of lookups$`);

let rig: LiveClientOnFakeVenue | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const BTC = 'BINANCE_PERP_BTC_USDT';
const QUOTES = ['buy-1', 'sell-1'];

const lastOf = (events: readonly UserEvent[], ref: string): Order | undefined =>
  events.flatMap((e) => (e.kind === 'order' && e.order.clientOrderId === ref ? [e.order] : [])).at(-1);
const ended = (events: readonly UserEvent[], ref: string): boolean =>
  lastOf(events, ref)?.orderState === 'CANCELLED';
const modifiesSent = (r: LiveClientOnFakeVenue) =>
  r.ws.requests.filter((request) => request.action === 'replace_order').length;

/**
 * A venue that acknowledges every place and refuses every other order command as "order not
 * found" (401018), its REST side knowing no order: once it acknowledged the quotes it behaves as
 * one that lost them (restarted without its data), on both sides.
 */
async function quotesThenForgotten(r: LiveClientOnFakeVenue): Promise<void> {
  r.ws.onRequest = (request) =>
    request.action === 'place_order'
      ? {
          event: request.action,
          id: request.id,
          code: 0,
          message: 'success',
          data: { orderId: `o-${request.args.clientOrderId}`, clientOrderId: request.args.clientOrderId },
        }
      : { event: request.action, id: request.id, code: 401018, message: 'order not found' };
  r.live.submit(approved(aLimitOrder({ ref: 'buy-1', price: D('100') })));
  r.live.submit(approved(aLimitOrder({ ref: 'sell-1', side: 'SELL', price: D('200') })));
  await waitFor(() => QUOTES.every((ref) => lastOf(r.events, ref)?.orderState === 'NEW'), 'the acks');
}

describe('orders the venue acknowledged and then lost', () => {
  it('after a reconnect to a wiped venue: ends them CANCELLED 30 s after the first "not found", sending none of the modifies meanwhile', async () => {
    rig = await liveClientOnFakeVenue();
    const r = rig;
    await quotesThenForgotten(r);
    await dropAndReconcile(r);
    // The reconciliation looked both quotes up: the venue's first "not found".
    const firstNotFound = r.timer.now();
    const endedAt = new Map<string, number>();
    let n = 0;
    // A market maker re-quoting on every tick, 2 a second, whatever its orders show.
    while (endedAt.size < QUOTES.length && r.timer.now() - firstNotFound < 45_000) {
      for (const ref of QUOTES) {
        if (endedAt.has(ref)) continue;
        n++;
        r.live.submit(
          approved({ kind: 'modifyOrder', ref: `m-${n}`, target: ref, sym: BTC, price: D('150') }),
        );
      }
      await r.timer.advance(500);
      await new Promise((resolve) => setTimeout(resolve, 2));
      for (const ref of QUOTES)
        if (ended(r.events, ref) && !endedAt.has(ref)) endedAt.set(ref, r.timer.now());
    }
    for (const ref of QUOTES) {
      expect(lastOf(r.events, ref)).toMatchObject({
        orderState: 'CANCELLED',
        synthesized: true,
        reason: expect.stringMatching(LOOKED_UP),
      });
      expect(endedAt.get(ref)).toBeLessThanOrEqual(firstNotFound + 31_000);
    }
    expect(modifiesSent(r)).toBe(0);
    const refusals = r.events.flatMap((e) => (e.kind === 'commandRejected' ? [e] : []));
    expect(refusals).toHaveLength(n);
    expect(new Set(refusals.map((e) => e.code))).toEqual(new Set([COMMAND_NOT_APPLIED]));
    expect(r.live.forgottenOrderWarnings.join('\n')).toMatch(/buy-1/);
    expect(r.live.forgottenOrderWarnings.join('\n')).toMatch(/sell-1/);
  });

  it('refuses a held modify as not applied at once when a cancel of its order (or of its sym) comes, or the client stops', async () => {
    rig = await liveClientOnFakeVenue();
    const r = rig;
    await quotesThenForgotten(r);
    await dropAndReconcile(r);
    const modify = (ref: string, target: string) =>
      r.live.submit(approved({ kind: 'modifyOrder', ref, target, sym: BTC, price: D('150') }));
    const refused = (ref: string) =>
      r.events.find((e) => e.kind === 'commandRejected' && e.ref === ref) as { code: number } | undefined;
    modify('m-buy', 'buy-1');
    modify('m-sell', 'sell-1');
    r.live.submit(approved({ kind: 'cancelOrder', ref: 'cx-buy', target: 'buy-1', sym: BTC }));
    await waitFor(() => refused('cx-buy') !== undefined, 'the cancel’s refusal');
    expect(refused('m-buy')?.code).toBe(COMMAND_NOT_APPLIED);
    expect(refused('m-sell')).toBeUndefined();
    // A stop's sweep cancels a whole sym's orders.
    r.live.submit(approved({ kind: 'cancelOrders', ref: 'cx-all', sym: BTC }));
    await waitFor(() => refused('cx-all') !== undefined, 'the sweep’s refusal');
    expect(refused('m-sell')?.code).toBe(COMMAND_NOT_APPLIED);
    modify('m-sell-2', 'sell-1');
    await r.live.stop();
    expect(refused('m-sell-2')?.code).toBe(COMMAND_NOT_APPLIED);
    expect(r.ws.requests.map((q) => q.action).filter((a) => a !== 'place_order')).toEqual([
      'cancel_order',
      'cancel_orders',
    ]);
  });

  it('refusals of its modify and cancels as unknown, one a second, do not put off the verdict 30 s after the first', async () => {
    rig = await liveClientOnFakeVenue();
    const r = rig;
    await quotesThenForgotten(r);
    r.live.submit(approved({ kind: 'modifyOrder', ref: 'm-1', target: 'buy-1', sym: BTC, price: D('150') }));
    await waitFor(() => r.events.some((e) => e.kind === 'commandRejected'), 'the refusal');
    const firstNotFound = r.timer.now();
    let n = 0;
    while (!ended(r.events, 'buy-1') && r.timer.now() - firstNotFound < 45_000) {
      n++;
      r.live.submit(approved({ kind: 'cancelOrder', ref: `cx-${n}`, target: 'buy-1', sym: BTC }));
      await waitFor(
        () => r.events.filter((e) => e.kind === 'commandRejected').length === n + 1,
        'the refusal',
      );
      await r.timer.advance(1_000);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect(lastOf(r.events, 'buy-1')).toMatchObject({
      orderState: 'CANCELLED',
      synthesized: true,
      reason: expect.stringMatching(LOOKED_UP),
    });
    expect(r.timer.now()).toBeLessThanOrEqual(firstNotFound + 31_000);
    expect(n).toBeGreaterThan(20);
    expect(lastOf(r.events, 'sell-1')?.orderState).toBe('NEW');
  });
});
