import { Subject } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  awaitInFlightOnStop,
  cancelOpenOrdersOnStop,
  type StopClock,
  stopCancelWarning,
} from '../../../config/compose/cancel-on-stop.ts';
import { RunMetrics } from '../../../config/compose/run-metrics.ts';
import type { Intent, UserEvent } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { aRecordingKernelRig } from '../../kit/kernel-builders.ts';
import { BTC, ETH } from '../../kit/kernel-events.ts';

/** A clock that moves only when the code under test sleeps. */
function steppedClock(): StopClock & { slept: number } {
  let now = 1_000;
  const clock = {
    slept: 0,
    now: () => now,
    sleep: (ms: number) => {
      now += ms;
      clock.slept += ms;
      return Promise.resolve();
    },
  };
  return clock;
}

/**
 * A venue that cannot be reached for the first `unreachableFor` cancels (it refuses them with
 * code 0, as the REST fallback does when the connection fails), then cancels what it is asked to.
 */
function flakyVenue(unreachableFor: number) {
  const events = new Subject<UserEvent>();
  let open = [
    { sym: BTC, clientOrderId: 'mm-t1-1' },
    { sym: BTC, clientOrderId: 'mm-t1-2' },
    { sym: ETH, clientOrderId: 'old-1' },
  ];
  const sent: string[] = [];
  const execution = {
    events: events.asObservable(),
    submit(command: never) {
      const intent = (command as { intent: Intent }).intent;
      sent.push(intent.ref);
      if (sent.length <= unreachableFor) {
        events.next({
          kind: 'commandRejected',
          recvTs: 0,
          ts: 0,
          ref: intent.ref,
          intentKind: intent.kind,
          code: 0,
          message: 'could not reach the venue',
        });
        return;
      }
      if (intent.kind === 'cancelOrders') open = open.filter((o) => o.sym !== intent.sym);
    },
  };
  return { execution, sent, open: () => open };
}

function stopping(unreachableFor: number, timeoutMs: number) {
  const venue = flakyVenue(unreachableFor);
  const { kernel } = aRecordingKernelRig([]);
  const gate = new RunMetrics(() => 0).timingGate(new RiskGate());
  const clock = steppedClock();
  const outcome = cancelOpenOrdersOnStop(
    kernel,
    gate,
    venue.execution,
    { openOrders: venue.open, inFlight: () => [] },
    timeoutMs,
    clock,
  );
  return { venue, clock, outcome };
}

describe('cancelling every order at stop', () => {
  it('tries again, with backoff, while the venue cannot be reached, until everything is cancelled', async () => {
    const { venue, outcome } = stopping(4, 10_000);
    expect(await outcome).toEqual({ attempts: 3, leftOpen: [] });
    expect(venue.sent).toEqual([
      `keel-stop-${BTC}`,
      `keel-stop-${ETH}`,
      `keel-stop-${BTC}-2`,
      `keel-stop-${ETH}-2`,
      `keel-stop-${BTC}-3`,
      `keel-stop-${ETH}-3`,
    ]);
  });

  it('gives up at shutdown.timeoutMs and names what may still be open', async () => {
    const { venue, clock, outcome } = stopping(Number.POSITIVE_INFINITY, 3_000);
    const result = await outcome;
    expect(result.leftOpen).toEqual(['mm-t1-1', 'mm-t1-2', 'old-1']);
    expect(result.attempts).toBe(4); // at 0, 250, 750 and 1750 ms
    expect(clock.slept).toBe(3_000);
    expect(venue.sent).toHaveLength(8);
    expect(stopCancelWarning(result, 3_000)).toBe(
      '3 orders may still be open on the venue: mm-t1-1, mm-t1-2, old-1 (shutdown.cancelAllOrders could not cancel them in 4 attempts within shutdown.timeoutMs 3000 ms; check the venue)',
    );
  });

  it('sends nothing when nothing is open', async () => {
    const events = new Subject<UserEvent>();
    const sent: unknown[] = [];
    const { kernel } = aRecordingKernelRig([]);
    const gate = new RunMetrics(() => 0).timingGate(new RiskGate());
    const result = await cancelOpenOrdersOnStop(
      kernel,
      gate,
      { events, submit: (c) => sent.push(c) },
      { openOrders: () => [], inFlight: () => [] },
      1_000,
      steppedClock(),
    );
    expect(result).toEqual({ attempts: 0, leftOpen: [] });
    expect(stopCancelWarning(result, 1_000)).toBeUndefined();
    expect(sent).toEqual([]);
  });
});

describe('orders still in flight at stop', () => {
  /** An order sent at 1 000 ms whose ack arrives `ackAfterMs` later (never when infinite), then open on the venue. */
  function inFlightOrder(clock: StopClock, ackAfterMs: number) {
    const acked = () => clock.now() >= 1_000 + ackAfterMs;
    const cancelled = { value: false };
    return {
      cancelled,
      record: {
        openOrders: () => (acked() && !cancelled.value ? [{ sym: BTC, clientOrderId: 'mm-t1-9' }] : []),
        inFlight: () => (acked() ? [] : [{ ref: 'mm-t1-9', kind: 'placeOrder' as const, sentAt: 900 }]),
      },
    };
  }

  it('waits for the ack of an order still on its way, then cancels it like the others', async () => {
    const clock = steppedClock();
    const order = inFlightOrder(clock, 6_000);
    const sent: string[] = [];
    const { kernel } = aRecordingKernelRig([]);
    const gate = new RunMetrics(() => 0).timingGate(new RiskGate());
    const execution = {
      events: new Subject<UserEvent>(),
      submit(command: never) {
        const intent = (command as { intent: Intent }).intent;
        sent.push(intent.ref);
        if (intent.kind === 'cancelOrders') order.cancelled.value = true;
      },
    };
    const result = await cancelOpenOrdersOnStop(kernel, gate, execution, order.record, 10_000, clock);
    expect(result).toEqual({ attempts: 1, leftOpen: [] });
    expect(sent).toEqual([`keel-stop-${BTC}`]);
    expect(clock.now()).toBeGreaterThanOrEqual(7_000);
  });

  it('stops waiting at shutdown.timeoutMs, leaving the order in flight for the caller to report', async () => {
    const clock = steppedClock();
    const order = inFlightOrder(clock, Number.POSITIVE_INFINITY);
    const { kernel } = aRecordingKernelRig([]);
    const gate = new RunMetrics(() => 0).timingGate(new RiskGate());
    const execution = { events: new Subject<UserEvent>(), submit: () => {} };
    const result = await cancelOpenOrdersOnStop(kernel, gate, execution, order.record, 2_000, clock);
    expect(result).toEqual({ attempts: 0, leftOpen: [] });
    expect(clock.slept).toBe(2_000);
    expect(order.record.inFlight()).toHaveLength(1);
  });

  it('are waited for without cancels when shutdown.cancelAllOrders is false', async () => {
    const clock = steppedClock();
    const order = inFlightOrder(clock, 1_500);
    await awaitInFlightOnStop(order.record.inFlight, 10_000, clock);
    expect(clock.slept).toBe(1_500);
    expect(order.record.openOrders()).toEqual([{ sym: BTC, clientOrderId: 'mm-t1-9' }]);
  });
});

describe('waiting at stop for commands in flight when the wall clock steps', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits its whole time on real time though the wall clock steps forward an hour meanwhile', async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const stillInFlight = [{ ref: 'mm-t1-1', kind: 'placeOrder' as const, sentAt: 1_000_000 }];
    let done = false;
    void awaitInFlightOnStop(() => stillInFlight, 10_000).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(1_000);
    vi.setSystemTime(Date.now() + 3_600_000);
    await vi.advanceTimersByTimeAsync(8_900);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(200);
    expect(done).toBe(true);
  });
});
