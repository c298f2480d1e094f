import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { PaperVenue } from '../../../../backtest/paper-venue/index.ts';
import type { UserEvent, VenueStatus } from '../../../../core/model/index.ts';
import { LocalTradingView } from '../../../../core/venue/live/local-trading-view.ts';
import { ExecutionCatchUp } from '../../../../core/venue/live/missed-executions.ts';
import type { VenueRestClient } from '../../../../core/venue/rest/rest-client.ts';
import { type LiveClientOnFakeVenue, liveClientOnFakeVenue } from '../../../kit/live-client-on-fake-venue.ts';
import { aRigBuy, eventually, type LivePaperRig, livePaperRigs } from '../../../kit/live-paper-rig.ts';
import { aPaperVenue, withFirstQuotes } from '../../../kit/paper-venue-builders.ts';
import type { ReceivedRequest, ScriptedReply } from '../../../kit/venue-http-server.ts';
import { advanceUntil, waitFor } from '../../../kit/venue-wait.ts';
import { ok, page, WIRE_EXECUTION } from '../../../kit/venue-wire-samples.ts';

const rigOn = livePaperRigs();

const executionsOf = (events: UserEvent[], ref: string) =>
  events.filter((e) => e.kind === 'execution' && e.execution.clientOrderId === ref);
const indexOfState = (events: UserEvent[], ref: string, state: string) =>
  events.findIndex(
    (e) => e.kind === 'order' && e.order.clientOrderId === ref && e.order.orderState === state,
  );

async function restingBid(rig: LivePaperRig, ref: string): Promise<void> {
  rig.live.submit(aRigBuy(ref, '99.0'));
  await eventually(() => indexOfState(rig.events, ref, 'OPEN') >= 0, `${ref} OPEN`);
}

/** Releases the scripted quote 98.9 / 99.0, which fills a resting 99.0 bid. */
async function crossTheBid(v: PaperVenue): Promise<void> {
  v.feed.step(1);
  await v.feed.until(3);
}

describe('live execution client: fills made while the private socket was down', () => {
  it('reports a fill made during the gap once after the reconnect, before the FILLED order', async () => {
    const v = await withFirstQuotes(await aPaperVenue());
    const rig = await rigOn(v);
    await restingBid(rig, 'gap-1');
    v.faults.dropConnections('private');
    await crossTheBid(v);
    await eventually(() => indexOfState(rig.events, 'gap-1', 'FILLED') >= 0, 'FILLED after the reconnect');
    await eventually(() => executionsOf(rig.events, 'gap-1').length > 0, 'the missed fill');
    const fills = executionsOf(rig.events, 'gap-1');
    expect(fills).toHaveLength(1);
    expect(fills[0]).toMatchObject({
      execution: { price: expect.anything(), transactionId: expect.any(String) },
    });
    expect(rig.events.indexOf(fills[0] as UserEvent)).toBeLessThan(
      indexOfState(rig.events, 'gap-1', 'FILLED'),
    );
  });

  it('never reports a fill twice: not for a duplicate push, nor again after later reconnects', async () => {
    const v = await withFirstQuotes(await aPaperVenue());
    const rig = await rigOn(v);
    await restingBid(rig, 'dup-1');
    v.faults.duplicateNextPushes(10);
    await crossTheBid(v);
    await eventually(() => indexOfState(rig.events, 'dup-1', 'FILLED') >= 0, 'FILLED pushed');
    for (let drop = 0; drop < 2; drop++) {
      const accounts = rig.events.filter((e) => e.kind === 'account').length;
      v.faults.dropConnections('private');
      // Each reconnect's reconciliation ends with an account event.
      await eventually(
        () => rig.events.filter((e) => e.kind === 'account').length > accounts,
        `reconciliation after drop ${drop + 1}`,
      );
    }
    expect(executionsOf(rig.events, 'dup-1')).toHaveLength(1);
  });

  it('reports a gap fill even when the executions on the venue could be listed only after it (priming failed twice)', async () => {
    const v = await withFirstQuotes(await aPaperVenue());
    // Listing the executions fails at the start and at the first login's reconciliation (a 4xx: not retried).
    v.faults.failNextRest({ kind: 'status', status: 400, path: '/api/v1/trading/executions/pageable' });
    v.faults.failNextRest({ kind: 'status', status: 400, path: '/api/v1/trading/executions/pageable' });
    const rig = await rigOn(v);
    await eventually(() => rig.events.some((e) => e.kind === 'account'), 'first reconciliation');
    await restingBid(rig, 'late-prime-1');
    v.faults.dropConnections('private');
    await crossTheBid(v);
    await eventually(
      () => indexOfState(rig.events, 'late-prime-1', 'FILLED') >= 0,
      'FILLED after the reconnect',
    );
    await eventually(() => executionsOf(rig.events, 'late-prime-1').length > 0, 'the missed fill');
    expect(executionsOf(rig.events, 'late-prime-1')).toHaveLength(1);
  });

  it('does not report fills that predate the session as new after a reconnect', async () => {
    const v = await withFirstQuotes(await aPaperVenue());
    const first = await rigOn(v);
    await restingBid(first, 'old-1');
    await crossTheBid(v);
    await eventually(() => executionsOf(first.events, 'old-1').length === 1, 'the first session fill');
    await first.live.stop();
    // The venue allows one login per second per portfolio.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const second = await rigOn(v);
    await eventually(() => second.events.some((e) => e.kind === 'account'), 'first reconciliation');
    v.faults.dropConnections('private');
    await eventually(
      () => second.events.filter((e) => e.kind === 'account').length >= 2,
      'reconciliation after the drop',
    );
    expect(second.events.filter((e) => e.kind === 'execution')).toEqual([]);
  });
});

describe('live execution client: a fill stamped in the future', () => {
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

  async function dropAndReconcile(
    on: LiveClientOnFakeVenue,
    whileDown: () => void = () => {},
  ): Promise<void> {
    const statuses: VenueStatus[] = [];
    on.live.status.subscribe((s) => statuses.push(s));
    on.ws.dropAll();
    await waitFor(() => statuses.some((s) => s.state === 'down'), 'the drop');
    whileDown();
    await advanceUntil(on.timer, () => statuses.at(-1)?.state === 'reconciled', 'reconciled', 100, 100);
  }

  const reported = (events: UserEvent[]) =>
    events.flatMap((e) => (e.kind === 'execution' ? [e.execution.transactionId] : []));

  it('still reports the fill made while the socket was down after one stamped 5 minutes ahead was pushed', async () => {
    const onVenue: Record<string, unknown>[] = [];
    rig = await liveClientOnFakeVenue();
    rig.special = executionsFrom(onVenue);
    const now = rig.timer.now();
    const ahead = { ...WIRE_EXECUTION, transactionId: 't-ahead', timestamp: now + 5 * 60_000 };
    onVenue.push(ahead);
    rig.ws.push({ channel: 'Trades', data: [ahead] });
    await waitFor(() => rig?.events.some((e) => e.kind === 'execution') === true, 'the fill stamped ahead');
    await dropAndReconcile(rig, () =>
      onVenue.unshift({ ...WIRE_EXECUTION, transactionId: 't-gap', timestamp: now + 50 }),
    );
    expect(reported(rig.events)).toEqual(['t-ahead', 't-gap']);
  }, 30_000);

  it('does not report fills that predate the session when the newest one on the venue at the start is stamped ahead', async () => {
    const onVenue: Record<string, unknown>[] = [];
    const now = 1_700_000_000_000;
    onVenue.push(
      { ...WIRE_EXECUTION, transactionId: 't-ahead', timestamp: now + 5 * 60_000 },
      { ...WIRE_EXECUTION, transactionId: 't-before', timestamp: now - 10_000 },
    );
    rig = await liveClientOnFakeVenue({}, executionsFrom(onVenue));
    await dropAndReconcile(rig);
    expect(reported(rig.events)).toEqual([]);
  }, 30_000);
});

describe('live execution client: the executions a later catch-up can list', () => {
  /** A venue whose execution list is empty, or whose listing fails once `failing` is set. */
  function catchUpOn(failing: { now: boolean }) {
    const rest = {
      getExecutionsPage: async () => {
        if (failing.now) throw new Error('venue down');
        return { page: 1, list: [], totalSize: 0, pageSize: 100 };
      },
    } as unknown as VenueRestClient;
    const view = new LocalTradingView(() => 10_000_000);
    const catchUp = new ExecutionCatchUp(
      rest,
      view,
      { marginMs: 60_000, pageSize: 100 },
      pino({ level: 'silent' }),
      () => false,
      () => 10_000_000,
    );
    return { view, catchUp };
  }

  it('start one margin before the next catch-up, or before a failed one that is to be widened', async () => {
    const failing = { now: false };
    const { view, catchUp } = catchUpOn(failing);
    view.noteExecution('t1', 1_000_000, 1_000_000);
    expect(catchUp.oldestNeeded()).toBeUndefined();
    await catchUp.prime();
    expect(catchUp.oldestNeeded()).toBe(1_000_000 - 120_000);
    failing.now = true;
    expect(await catchUp.recent()).toBeUndefined();
    view.noteExecution('t2', 2_000_000, 2_000_000);
    expect(catchUp.oldestNeeded()).toBe(1_000_000 - 120_000);
    failing.now = false;
    expect(await catchUp.recent()).toEqual({ executions: [], leftOut: [] });
    expect(catchUp.oldestNeeded()).toBe(2_000_000 - 120_000);
  });
});
