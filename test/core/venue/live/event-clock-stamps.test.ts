import { afterEach, describe, expect, it } from 'vitest';
import type { Intent, UserEvent, VenueStatus } from '../../../../core/model/index.ts';
import { D } from '../../../../core/model/index.ts';
import { approved } from '../../../kit/approved-intents.ts';
import { aLimitOrder } from '../../../kit/intent-builders.ts';
import {
  dropAndReconcile,
  type LiveClientOnFakeVenue,
  liveClientOnFakeVenue,
} from '../../../kit/live-client-on-fake-venue.ts';
import { waitFor } from '../../../kit/venue-wait.ts';
import { ok, WIRE_ALGO_ORDER, WIRE_ORDER, WIRE_POSITION } from '../../../kit/venue-wire-samples.ts';

/**
 * A paper session replaying 2025 on a venue whose `Date` header is this machine's clock (lockstep
 * pacing): the session's clock, a year and more behind, is what the kernel takes every event's
 * time for, so what the client makes itself must carry it, not the `Date` estimate.
 */
const SESSION_START = Date.UTC(2025, 0, 6, 14, 0, 0);

/** The session's clock: the replay's time, moving a millisecond each time it is read. */
function sessionClock(): () => number {
  let now = SESSION_START;
  return () => now++;
}

const onSessionClock = (ts: number): boolean => ts >= SESSION_START && ts < SESSION_START + 3_600_000;

const algoPlace = (ref: string): Intent => ({
  kind: 'placeAlgoOrder',
  ref,
  sym: WIRE_POSITION.sym,
  side: 'SELL',
  algoOrderType: 'TRIGGER',
  conditionType: 'LTE',
  triggerType: 'MarkPrice',
  triggerPrice: D('50000'),
  price: D('0'),
  qty: D('1'),
  reduceOnly: true,
  positionSide: 'NONE',
});

describe('live execution client with an event clock: what it makes itself carries the session’s time', () => {
  let rig: LiveClientOnFakeVenue | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });
  const start = async () => {
    rig = await liveClientOnFakeVenue({ eventClock: sessionClock() });
    return rig;
  };
  const since = (on: LiveClientOnFakeVenue, from: number, kind: UserEvent['kind']) =>
    on.events.slice(from).filter((e) => e.kind === kind);

  it("stamps a reconciliation's corrections on the session clock, not the venue's Date", async () => {
    const on = await start();
    const corrections = on.events.filter((e) => ['position', 'asset', 'account'].includes(e.kind));
    expect(corrections.map((e) => e.kind)).toEqual(['position', 'asset', 'account']);
    for (const event of corrections)
      expect(onSessionClock(event.ts), `${event.kind} ts ${event.ts}`).toBe(true);
  });

  it('stamps the algo order a REST reply reports on the session clock', async () => {
    const on = await start();
    on.special = (r) =>
      r.method === 'POST' && r.path === '/api/v1/algo/order'
        ? { body: ok({ ...WIRE_ALGO_ORDER, clientAlgoOrderId: 'al-1', algoOrderState: 'NEW' }) }
        : undefined;
    const from = on.events.length;
    on.live.submit(approved(algoPlace('al-1')));
    await waitFor(() => since(on, from, 'algoOrder').length === 1, 'the algo order reply');
    const [event] = since(on, from, 'algoOrder');
    expect(onSessionClock(event?.ts ?? 0), `ts ${event?.ts}`).toBe(true);
    expect(onSessionClock(event?.recvTs ?? 0), `recvTs ${event?.recvTs}`).toBe(true);
  });

  it('stamps the algo orders a cancel-all read back on the session clock', async () => {
    const algo = { ...WIRE_ALGO_ORDER, algoOrderId: 'a-1', clientAlgoOrderId: 'ca-1', algoOrderState: 'NEW' };
    const on = await start();
    on.special = (r) => {
      if (r.path === '/api/v1/algo/openOrders') return { body: ok([algo]) };
      if (r.method === 'GET' && r.path === '/api/v1/algo/order')
        return { body: ok({ ...algo, algoOrderState: 'CANCELLED' }) };
      return undefined;
    };
    const from = on.events.length;
    on.live.submit(approved({ kind: 'cancelAllAlgoOrders', ref: 'x-all' }));
    await waitFor(() => since(on, from, 'algoOrder').length === 1, 'the cancelled algo order');
    expect(onSessionClock(since(on, from, 'algoOrder')[0]?.ts ?? 0)).toBe(true);
  });

  it('stamps an order it reports REJECTED, and the order itself, on the session clock', async () => {
    const on = await start();
    const from = on.events.length;
    on.live.submit(approved(aLimitOrder({ ref: 'r'.repeat(41) })));
    await waitFor(() => since(on, from, 'order').length === 1, 'the REJECTED order');
    const [event] = since(on, from, 'order');
    if (event?.kind !== 'order') throw new Error('no order event');
    expect(event.order.orderState).toBe('REJECTED');
    expect([event.ts, event.order.createAt, event.order.updateAt].every(onSessionClock)).toBe(true);
  });

  it('marks what it makes itself stampedByKeel (the kernel closes no live bar on it), and not what the venue pushes', async () => {
    const on = await start();
    const corrections = on.events.filter((e) => ['position', 'asset', 'account'].includes(e.kind));
    expect(corrections.map((e) => e.stampedByKeel)).toEqual([true, true, true]);
    const from = on.events.length;
    on.live.submit(approved(aLimitOrder({ ref: 'r'.repeat(41) })));
    await waitFor(() => since(on, from, 'order').length === 1, 'the REJECTED order');
    expect(since(on, from, 'order')[0]?.stampedByKeel).toBe(true);
    on.ws.push({
      channel: 'Orders',
      ts: SESSION_START + 5,
      data: [{ ...WIRE_ORDER, clientOrderId: 'pushed-1' }],
    });
    await waitFor(() => since(on, from, 'order').length === 2, 'the pushed order');
    const pushed = since(on, from, 'order')[1];
    expect(pushed?.ts).toBe(SESSION_START + 5);
    expect(pushed !== undefined && 'stampedByKeel' in pushed).toBe(false);
  });

  it('stamps a command it refuses on the session clock', async () => {
    const on = await start();
    const from = on.events.length;
    on.live.submit(approved({ kind: 'modifyOrder', ref: 'm-1', target: 'c-1', sym: WIRE_POSITION.sym }));
    await waitFor(() => since(on, from, 'commandRejected').length === 1, 'the refusal');
    expect(onSessionClock(since(on, from, 'commandRejected')[0]?.ts ?? 0)).toBe(true);
  });

  it('stamps the private stream’s status changes on the session clock', async () => {
    const on = await start();
    const statuses: VenueStatus[] = await dropAndReconcile(on);
    expect(statuses.map((s) => s.state)).toEqual(['down', 'up', 'reconciled']);
    for (const status of statuses) expect(onSessionClock(status.ts), status.state).toBe(true);
  }, 30_000);
});
