import { describe, expect, it } from 'vitest';
import type { UserEvent } from '../../../../core/model/index.ts';
import { EXECUTION_SWEEP_MIN, LocalTradingView } from '../../../../core/venue/live/local-trading-view.ts';
import { anExecution } from '../../../kit/execution-builders.ts';
import { anOrder } from '../../../kit/order-builders.ts';

/** The venue's time as the view reads it: a test sets it before each event it folds. */
let venueTime = 0;
const viewOnVenueTime = () => new LocalTradingView(() => venueTime);

const orderEvent = (clientOrderId: string, orderId = `o-${clientOrderId}`): UserEvent => ({
  kind: 'order',
  ts: 1,
  recvTs: 1,
  order: anOrder({ clientOrderId, orderId }),
});

describe('local trading view: what the venue updated after a snapshot was begun', () => {
  it('tells an update that came after the snapshot began from one that came before', () => {
    const view = viewOnVenueTime();
    const earlier = view.beginSnapshot();
    view.observe(orderEvent('before'));
    const mark = view.beginSnapshot();
    view.observe(orderEvent('after'));
    expect(view.updatedSince(orderEvent('after'), mark)).toBe(true);
    expect(view.updatedSince(orderEvent('before'), mark)).toBe(false);
    expect(view.updatedSince(orderEvent('before'), earlier)).toBe(true);
  });

  it('knows an order by its orderId too, and does not count a correction as an update', () => {
    const view = viewOnVenueTime();
    const mark = view.beginSnapshot();
    view.observe(orderEvent('', 'o-web'));
    view.observeCorrection(orderEvent('corrected'));
    expect(view.updatedSince(orderEvent('other-ref', 'o-web'), mark)).toBe(true);
    expect(view.updatedSince(orderEvent('corrected'), mark)).toBe(false);
  });

  it('forgets the updates once no snapshot is open, so a long session keeps no key for ever', () => {
    const view = viewOnVenueTime();
    const mark = view.beginSnapshot();
    view.observe(orderEvent('a'));
    view.endSnapshot();
    expect(view.updatedSince(orderEvent('a'), mark)).toBe(false);
    view.observe(orderEvent('b'));
    expect(view.updatedSince(orderEvent('b'), mark)).toBe(false);
  });
});

describe('local trading view: what reconciliation compares', () => {
  it('holds each open order placed without a clientOrderId (by hand) apart, by its orderId', () => {
    const view = viewOnVenueTime();
    view.observe(orderEvent('', 'o-hand-1'));
    view.observe(orderEvent('', 'o-hand-2'));
    view.observe(orderEvent('keel-1'));
    expect(view.state().openOrders.map((o) => o.orderId)).toEqual(['o-hand-1', 'o-hand-2', 'o-keel-1']);
    view.observe({
      kind: 'order',
      ts: 2,
      recvTs: 2,
      order: anOrder({ clientOrderId: '', orderId: 'o-hand-1', orderState: 'FILLED' }),
    });
    expect(view.state().openOrders.map((o) => o.orderId)).toEqual(['o-hand-2', 'o-keel-1']);
  });

  it('counts an execution stamped after it was received as received then, so the catch-up starts no later', () => {
    const view = viewOnVenueTime();
    const fill = (transactionId: string, timestamp: number, recvTs: number): UserEvent => ({
      kind: 'execution',
      ts: timestamp,
      recvTs,
      execution: anExecution({ transactionId, timestamp, side: 'BUY', quantity: '1', price: '100' }),
    });
    venueTime = 1_005;
    view.observe(fill('t-1', 1_000, 1_005));
    venueTime = 2_000;
    view.observe(fill('t-ahead', 301_000, 2_000));
    expect(view.newestExecutionTs()).toBe(2_000);
    view.noteExecution('t-primed', 900_000, 3_000);
    expect(view.newestExecutionTs()).toBe(3_000);
    view.forgetExecutionsBefore(2_500);
    expect(['t-1', 't-ahead', 't-primed'].map((id) => view.hasExecution(id))).toEqual([false, true, true]);
  });
});

describe('local trading view: the executions it remembers', () => {
  const fillAt = (view: LocalTradingView, ts: number) => {
    venueTime = ts;
    view.observe({
      kind: 'execution',
      ts,
      recvTs: ts,
      execution: anExecution({
        side: 'BUY',
        quantity: '1',
        price: '100',
        timestamp: ts,
        transactionId: `x${ts}`,
      }),
    });
  };

  it('forgets those no catch-up can list any more, so a session that never reconnects stays bounded', () => {
    let oldestNeeded: number | undefined;
    const view = new LocalTradingView(
      () => venueTime,
      () => oldestNeeded,
    );
    // One fill a second for 20 000 s; a catch-up can list the last 120 s.
    for (let s = 1; s <= 20_000; s++) {
      fillAt(view, s * 1_000);
      oldestNeeded = s * 1_000 - 120_000;
    }
    const seen = view.state().seenExecutionIds ?? new Set();
    expect(seen.size).toBeLessThanOrEqual(2 * EXECUTION_SWEEP_MIN);
    expect(view.hasExecution('x20000000')).toBe(true);
    expect(view.hasExecution(`x${20_000_000 - 120_000}`)).toBe(true);
    expect(view.hasExecution('x1000')).toBe(false);
    expect(view.newestExecutionTs()).toBe(20_000_000);
  });

  it('keeps every one while any may still be compared', () => {
    const view = new LocalTradingView(
      () => venueTime,
      () => undefined,
    );
    for (let s = 1; s <= 3_000; s++) fillAt(view, s * 1_000);
    expect(view.state().seenExecutionIds?.size).toBe(3_000);
  });
});
