import fc from 'fast-check';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { UserEvent } from '../../../../core/model/index.ts';
import { classifyPrivateFrame, hmacSigner, PrivateWsClient } from '../../../../core/venue/index.ts';
import { fakeTimer } from '../../../kit/venue-fake-timer.ts';
import { WIRE_EXECUTION, WIRE_ORDER } from '../../../kit/venue-wire-samples.ts';

const fill = (id: string, extra: Record<string, unknown> = {}) => ({
  ...WIRE_EXECUTION,
  transactionId: id,
  ...extra,
});
const withoutPrice = (id: string) => {
  const { price: _price, ...rest } = fill(id);
  return rest;
};
const tradesFrame = (data: unknown[]) => JSON.stringify({ channel: 'Trades', ts: 5, data });

function silentClient(): PrivateWsClient {
  return new PrivateWsClient({
    url: 'ws://127.0.0.1:1/unused',
    signer: hmacSigner('k', 's'),
    timer: fakeTimer(),
    logger: pino({ level: 'silent' }),
  });
}

const idsOf = (events: readonly UserEvent[]) =>
  events.map((e) => (e.kind === 'execution' ? e.execution.transactionId : e.kind));

describe('User Data batch decoding, entry by entry', () => {
  it('delivers the valid fill of a frame whose other entry misses its price, naming the bad entry', () => {
    const frame = classifyPrivateFrame(tradesFrame([fill('T-1'), withoutPrice('T-2'), fill('T-3')]), 9);
    expect(frame.kind).toBe('events');
    if (frame.kind !== 'events') return;
    expect(idsOf(frame.events)).toEqual(['T-1', 'T-3']);
    expect(frame.badEntries).toHaveLength(1);
    expect(frame.badEntries[0]).toMatch(/Trades channel data\[1\]: price/);
  });

  it('keeps a fill whose execType the docs do not list (a liquidation) as a TAKER fill, with the venue text', () => {
    const frame = classifyPrivateFrame(
      tradesFrame([fill('T-1'), fill('T-2', { execType: 'LIQUIDATION' })]),
      9,
    );
    expect(frame.kind === 'events' && frame.badEntries).toEqual([]);
    const events = frame.kind === 'events' ? frame.events : [];
    const [maker, liquidation] = events.map((e) => (e.kind === 'execution' ? e.execution : undefined));
    expect(maker?.execType).toBe(WIRE_EXECUTION.execType);
    expect(maker?.venueExecType).toBeUndefined();
    expect(liquidation?.execType).toBe('TAKER');
    expect(liquidation?.venueExecType).toBe('LIQUIDATION');
  });

  it('keeps an order update whose orderType or trigger type the docs do not list', () => {
    const frame = classifyPrivateFrame(
      JSON.stringify({
        channel: 'Orders',
        data: [
          { ...WIRE_ORDER, orderType: 'LIQUIDATION', limitPrice: '0' },
          { ...WIRE_ORDER, orderId: 'o-2', orderType: 'ADL', limitPrice: '64000' },
          { ...WIRE_ORDER, orderId: 'o-3', tpTriggerPrice: '70000', tpTriggerType: 'IndexPrice' },
        ],
      }),
      9,
    );
    expect(frame.kind === 'events' && frame.badEntries).toEqual([]);
    const orders =
      frame.kind === 'events' ? frame.events.flatMap((e) => (e.kind === 'order' ? [e.order] : [])) : [];
    expect(orders.map((o) => o.orderType)).toEqual(['MARKET', 'LIMIT', WIRE_ORDER.orderType]);
    expect(orders[2]?.tp?.triggerType).toBe('MarkPrice');
  });

  it('still refuses an order state the docs do not list (only that entry), and names its order for a lookup', () => {
    const frame = classifyPrivateFrame(
      JSON.stringify({ channel: 'Orders', data: [{ ...WIRE_ORDER, orderState: 'LIMBO' }, WIRE_ORDER] }),
      9,
    );
    expect(frame.kind === 'events' && frame.events.length).toBe(1);
    expect(frame.kind === 'events' && frame.badEntries[0]).toMatch(/data\[0\]: orderState/);
    expect(frame.kind === 'events' && frame.unknownStateOrders).toEqual([
      { sym: WIRE_ORDER.sym, clientOrderId: WIRE_ORDER.clientOrderId, orderId: WIRE_ORDER.orderId },
    ]);
  });

  it('names the order of a frame whose only entry is in an unknown state, one placed by hand without a clientOrderId', () => {
    const { clientOrderId: _none, ...byHand } = { ...WIRE_ORDER, orderId: 'o-hand', orderState: 'LIMBO' };
    const client = silentClient();
    const named: unknown[] = [];
    client.unknownStateOrders.subscribe((order) => named.push(order));
    client.receive(JSON.stringify({ channel: 'Orders', data: [byHand] }), 1);
    expect(named).toEqual([{ sym: WIRE_ORDER.sym, clientOrderId: '', orderId: 'o-hand' }]);
    expect(client.counters).toMatchObject({ pushes: 0, malformed: 1 });
  });

  it('calls a frame whose entries are all bad malformed, listing each entry', () => {
    const frame = classifyPrivateFrame(tradesFrame([withoutPrice('T-1'), fill('T-2', { quantity: 'x' })]), 9);
    expect(frame.kind).toBe('malformed');
    expect(frame.kind === 'malformed' && frame.problem).toMatch(/data\[0\]: price.*; .*data\[1\]: quantity/);
  });

  it('the private client emits exactly the good entries of any mix, and counts each bad one as malformed', () => {
    const entry = fc.oneof(
      fc.constant<'good' | 'noPrice' | 'badQty' | 'notObject'>('good'),
      fc.constantFrom<'good' | 'noPrice' | 'badQty' | 'notObject'>('noPrice', 'badQty', 'notObject'),
    );
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 12 }), (kinds) => {
        const client = silentClient();
        const seen: UserEvent[] = [];
        client.userEvents.subscribe((e) => seen.push(e));
        const data = kinds.map((k, i) => {
          const id = `T-${i}`;
          if (k === 'good') return fill(id);
          if (k === 'noPrice') return withoutPrice(id);
          if (k === 'badQty') return fill(id, { quantity: 'lots' });
          return 42;
        });
        client.receive(tradesFrame(data), 1);
        const goodIds = kinds.flatMap((k, i) => (k === 'good' ? [`T-${i}`] : []));
        const bad = kinds.length - goodIds.length;
        expect(idsOf(seen)).toEqual(goodIds);
        expect(client.counters.frames).toBe(1);
        if (goodIds.length > 0) {
          expect(client.counters).toMatchObject({ pushes: 1, malformed: bad });
        } else {
          expect(client.counters).toMatchObject({ pushes: 0, malformed: 1 });
        }
      }),
      { numRuns: 200, seed: 11 },
    );
  });
});
