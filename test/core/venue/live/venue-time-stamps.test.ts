import { afterEach, describe, expect, it } from 'vitest';
import type { Intent, UserEvent, VenueStatus } from '../../../../core/model/index.ts';
import { approved } from '../../../kit/approved-intents.ts';
import { aLimitOrder } from '../../../kit/intent-builders.ts';
import {
  dropAndReconcile,
  type LiveClientOnFakeVenue,
  liveClientOnFakeVenue,
} from '../../../kit/live-client-on-fake-venue.ts';
import type { ReceivedRequest, ScriptedReply } from '../../../kit/venue-http-server.ts';
import { advanceUntil, waitFor } from '../../../kit/venue-wait.ts';
import { ok, page, WIRE_EXECUTION, WIRE_POSITION } from '../../../kit/venue-wire-samples.ts';

/** A venue replaying two years back (a paper venue on an old recording), far from the machine's clock. */
const TWO_YEARS_BEHIND = -2 * 365 * 86_400_000;
/** A venue whose clock is 3 s behind the machine's. */
const THREE_SECONDS_BEHIND = -3_000;
/** The venue's clock is learnt from `Date` headers, to the second. */
const DATE_GRAIN_MS = 1_000;

/** Whether a stamp is the venue's time now, as far as its `Date` headers tell it. */
function onVenueTime(rig: LiveClientOnFakeVenue, ts: number): boolean {
  return Math.abs(ts - rig.venueNow()) <= DATE_GRAIN_MS;
}

/** The events emitted after `from`, by kind. */
function emittedSince(rig: LiveClientOnFakeVenue, from: number, kind: UserEvent['kind']): UserEvent[] {
  return rig.events.slice(from).filter((e) => e.kind === kind);
}

describe('live execution client: the events it makes itself carry the venue’s time', () => {
  let rig: LiveClientOnFakeVenue | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  const submit = (on: LiveClientOnFakeVenue, intent: Intent) => on.live.submit(approved(intent));

  it("stamps a reconciliation's corrections (the snapshot's time) on a venue two years behind", async () => {
    rig = await liveClientOnFakeVenue({}, undefined, TWO_YEARS_BEHIND);
    const corrections = rig.events.filter((e) => ['position', 'asset', 'account'].includes(e.kind));
    expect(corrections.map((e) => e.kind)).toEqual(['position', 'asset', 'account']);
    for (const event of corrections) expect(onVenueTime(rig, event.ts), `${event.kind} ts`).toBe(true);
  });

  it('stamps an order it reports REJECTED, and the order itself, on a venue 3 s behind', async () => {
    const on = await liveClientOnFakeVenue({}, undefined, THREE_SECONDS_BEHIND);
    rig = on;
    const from = on.events.length;
    submit(on, aLimitOrder({ ref: 'r'.repeat(41) }));
    await waitFor(() => emittedSince(on, from, 'order').length === 1, 'the REJECTED order');
    const event = emittedSince(on, from, 'order')[0];
    if (event?.kind !== 'order') throw new Error('no order event');
    expect(event.order.orderState).toBe('REJECTED');
    expect(onVenueTime(on, event.ts)).toBe(true);
    expect(onVenueTime(on, event.order.updateAt)).toBe(true);
    expect(onVenueTime(on, event.order.createAt)).toBe(true);
  });

  it('stamps a command it refuses (commandRejected) on a venue two years behind', async () => {
    const on = await liveClientOnFakeVenue({}, undefined, TWO_YEARS_BEHIND);
    rig = on;
    const from = on.events.length;
    submit(on, { kind: 'modifyOrder', ref: 'm-1', target: 'c-1', sym: WIRE_POSITION.sym });
    await waitFor(() => emittedSince(on, from, 'commandRejected').length === 1, 'the refusal');
    const [refusal] = emittedSince(on, from, 'commandRejected');
    expect(onVenueTime(on, refusal?.ts ?? 0)).toBe(true);
  });

  it('stamps the account read after a REST command on a venue two years behind', async () => {
    const on = await liveClientOnFakeVenue({}, undefined, TWO_YEARS_BEHIND);
    rig = on;
    on.special = (r) =>
      r.method === 'POST' && r.path === '/api/v1/trading/account' ? { body: ok({}) } : undefined;
    const from = on.events.length;
    submit(on, { kind: 'setPositionMode', ref: 'pm-1', positionMode: 'BOTH' });
    await waitFor(() => emittedSince(on, from, 'account').length === 1, 'the account read');
    expect(onVenueTime(on, emittedSince(on, from, 'account')[0]?.ts ?? 0)).toBe(true);
  });

  it('stamps what the lookups after a lost REST reply found on a venue two years behind', async () => {
    const on = await liveClientOnFakeVenue({}, undefined, TWO_YEARS_BEHIND);
    rig = on;
    on.special = (r) =>
      r.method === 'POST' && r.path === '/api/v1/trading/account' ? { body: '', reset: true } : undefined;
    const from = on.events.length;
    submit(on, { kind: 'setPositionMode', ref: 'pm-2', positionMode: 'BOTH' });
    await advanceUntil(on.timer, () => emittedSince(on, from, 'account').length > 0, 'the lookup', 500, 40);
    for (const event of on.events.slice(from))
      expect(onVenueTime(on, event.ts), `${event.kind} ts`).toBe(true);
  });

  it('stamps the ADL rank signals it polls on a venue two years behind', async () => {
    const on = await liveClientOnFakeVenue({}, undefined, TWO_YEARS_BEHIND);
    rig = on;
    const entry = { sym: WIRE_POSITION.sym, positionId: 'pos-1', positionSide: 'NONE', adlRank: 2 };
    on.special = (r) => (r.path === '/api/v1/adl/rank' ? { body: ok([entry]) } : undefined);
    await on.live.refreshAdlRank();
    const [rank] = on.events.filter((e) => e.kind === 'adlRank');
    expect(onVenueTime(on, rank?.ts ?? 0)).toBe(true);
  });

  it('stamps the private stream’s status changes on a venue two years behind', async () => {
    const on = await liveClientOnFakeVenue({}, undefined, TWO_YEARS_BEHIND);
    rig = on;
    // The venue's time as each status is reported: on a busy machine the reconnection takes more
    // of the fake timer's steps, so the venue's time at the end is later than the first status's.
    const venueTimeAt = new Map<VenueStatus, number>();
    on.live.status.subscribe((status) => venueTimeAt.set(status, on.venueNow()));
    const statuses: VenueStatus[] = await dropAndReconcile(on);
    expect(statuses.map((s) => s.state)).toEqual(['down', 'up', 'reconciled']);
    for (const status of statuses)
      expect(Math.abs(status.ts - (venueTimeAt.get(status) ?? Number.NaN)), status.state).toBeLessThanOrEqual(
        DATE_GRAIN_MS,
      );
  }, 30_000);
});

describe('live execution client: a fill stamped ahead of a venue behind the machine', () => {
  let rig: LiveClientOnFakeVenue | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  /** The venue's executions, listed from the query's `begin` on. */
  const executionsFrom =
    (onVenue: Record<string, unknown>[]) =>
    (r: ReceivedRequest): ScriptedReply | undefined => {
      if (r.path !== '/api/v1/trading/executions/pageable') return undefined;
      const begin = r.query.begin === undefined ? 0 : Number(r.query.begin);
      return { body: ok(page(onVenue.filter((e) => Number(e.timestamp) >= begin))) };
    };

  it('still reports the fill made while the socket was down: the stamp counts at most as the venue’s time, not the machine’s', async () => {
    const onVenue: Record<string, unknown>[] = [];
    const on = await liveClientOnFakeVenue({}, executionsFrom(onVenue), -3_600_000);
    rig = on;
    const venueNow = on.venueNow();
    const ahead = { ...WIRE_EXECUTION, transactionId: 't-ahead', timestamp: venueNow + 5 * 60_000 };
    onVenue.push(ahead);
    on.ws.push({ channel: 'Trades', data: [ahead] });
    await waitFor(() => on.events.some((e) => e.kind === 'execution'), 'the fill stamped ahead');
    on.ws.dropAll();
    onVenue.unshift({ ...WIRE_EXECUTION, transactionId: 't-gap', timestamp: venueNow + 50 });
    await advanceUntil(
      on.timer,
      () => on.events.some((e) => e.kind === 'execution' && e.execution.transactionId === 't-gap'),
      'the gap fill',
      100,
      100,
    ).catch(() => undefined);
    const reported = on.events.flatMap((e) => (e.kind === 'execution' ? [e.execution.transactionId] : []));
    expect(reported).toEqual(['t-ahead', 't-gap']);
  }, 30_000);
});
