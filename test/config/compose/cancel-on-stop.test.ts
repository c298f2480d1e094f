import { Subject } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  afterClosesOutcome,
  awaitInFlightOnStop,
  cancelOpenOrdersOnStop,
  type OrderAtStop,
  type StopClock,
  stopCancelWarning,
} from '../../../config/compose/cancel-on-stop.ts';
import { RunMetrics } from '../../../config/compose/run-metrics.ts';
import type { Intent, UserEvent } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { anAlgoOrder, anAlgoOrderUpdate } from '../../kit/algo-order-builders.ts';
import { aRecordingKernelRig } from '../../kit/kernel-builders.ts';
import { aPositionUpdate, BTC, ETH } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';

/** An open order as a session's record holds it: a plain BUY unless `fields` say otherwise. */
function anOpen(sym: string, clientOrderId: string, fields: Partial<OrderAtStop> = {}): OrderAtStop {
  return { sym, clientOrderId, side: 'BUY', positionSide: 'NONE', reduceOnly: false, ...fields };
}

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
  let open = [anOpen(BTC, 'mm-t1-1'), anOpen(BTC, 'mm-t1-2'), anOpen(ETH, 'old-1')];
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
    { openOrders: venue.open, inFlight: () => [], keepProtective: true },
    timeoutMs,
    clock,
  );
  return { venue, clock, outcome };
}

describe('cancelling every order at stop', () => {
  it('tries again, with backoff, while the venue cannot be reached, until everything is cancelled', async () => {
    const { venue, outcome } = stopping(4, 10_000);
    expect(await outcome).toEqual({ attempts: 3, leftOpen: [], kept: [], unprotected: [] });
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
      { openOrders: () => [], inFlight: () => [], keepProtective: true },
      1_000,
      steppedClock(),
    );
    expect(result).toEqual({ attempts: 0, leftOpen: [], kept: [], unprotected: [] });
    expect(stopCancelWarning(result, 1_000)).toBeUndefined();
    expect(sent).toEqual([]);
  });
});

describe('the protective orders of open positions at stop', () => {
  /**
   * A long BTC position (`long` qty), with a reduce-only SELL stop and a plain BUY on BTC, a
   * reduce-only SELL on flat ETH, a take-profit / stop-loss algo order and a BUY trigger on BTC;
   * the venue cancels what it is asked to.
   */
  function protectedLong(keepProtective: boolean, long = '0.5') {
    const { kernel, port } = aRecordingKernelRig([]);
    port.emit(aPositionUpdate(1, long));
    const algos = [
      anAlgoOrder({ clientAlgoOrderId: 'tpsl-4', algoOrderType: 'TP_SL', reduceOnly: false }),
      anAlgoOrder({ clientAlgoOrderId: 'trigger-5', side: 'BUY', reduceOnly: false }),
    ];
    for (const algo of algos) port.emit(anAlgoOrderUpdate(algo));
    const events = new Subject<UserEvent>();
    let open = [
      anOpen(BTC, 'sl-1', { side: 'SELL', reduceOnly: true }),
      anOpen(BTC, 'entry-2'),
      anOpen(ETH, 'ro-3', { side: 'SELL', reduceOnly: true }),
    ];
    const sent: Intent[] = [];
    const execution = {
      events: events.asObservable(),
      submit(command: never) {
        const intent = (command as { intent: Intent }).intent;
        sent.push(intent);
        if (intent.kind === 'cancelOrders')
          open = open.filter(
            (o) =>
              o.sym !== intent.sym ||
              (intent.targets !== undefined && !intent.targets.includes(o.clientOrderId)),
          );
        const algo = algos.find(
          (a) => intent.kind === 'cancelAlgoOrder' && a.clientAlgoOrderId === intent.target,
        );
        if (algo !== undefined) events.next(anAlgoOrderUpdate({ ...algo, state: 'CANCELLED' }));
      },
    };
    const gate = new RunMetrics(() => 0).timingGate(new RiskGate());
    const record = { openOrders: () => open, inFlight: () => [], keepProtective };
    const cancel = () => cancelOpenOrdersOnStop(kernel, gate, execution, record, 5_000, steppedClock());
    return { kernel, port, sent, open: () => open, cancel };
  }

  /** What a cancel at stop asked for: [sym, the listed orders] of a cancelOrders, the target of a cancelAlgoOrder. */
  const cancelled = (intent: Intent) =>
    intent.kind === 'cancelOrders'
      ? [intent.sym, intent.targets]
      : intent.kind === 'cancelAlgoOrder'
        ? intent.target
        : intent.kind;

  it('keeps the stop-loss of an open position and cancels the rest, listing the others on its sym', async () => {
    const rig = protectedLong(true);
    const result = await rig.cancel();
    expect(rig.sent.map(cancelled)).toEqual([[BTC, ['entry-2']], [ETH, undefined], 'trigger-5']);
    expect(rig.open().map((o) => o.clientOrderId)).toEqual(['sl-1']);
    expect(result).toEqual({
      attempts: 1,
      leftOpen: [],
      kept: [
        { ref: 'sl-1', sym: BTC, positionSide: 'NONE' },
        { ref: 'tpsl-4', sym: BTC, positionSide: 'NONE' },
      ],
      unprotected: [],
    });
  });

  it('cancels it too when the position is flat by then', async () => {
    const rig = protectedLong(true, '0');
    const result = await rig.cancel();
    expect(rig.open()).toEqual([]);
    expect(result.kept).toEqual([]);
  });

  it('cancels it when asked not to keep it, naming it as left unprotected', async () => {
    const rig = protectedLong(false);
    const result = await rig.cancel();
    expect(rig.sent.map(cancelled)).toEqual([[BTC, undefined], [ETH, undefined], 'tpsl-4', 'trigger-5']);
    expect(rig.open()).toEqual([]);
    expect(result.unprotected).toEqual([
      { ref: 'sl-1', sym: BTC, positionSide: 'NONE' },
      { ref: 'tpsl-4', sym: BTC, positionSide: 'NONE' },
    ]);
  });

  it('cancels, after the closes, what was kept for a position they took flat', async () => {
    const rig = protectedLong(true);
    const first = await rig.cancel();
    rig.port.emit(aPositionUpdate(2, '0'));
    const outcome = afterClosesOutcome(first, await rig.cancel());
    expect(rig.open()).toEqual([]);
    expect(outcome).toEqual({ attempts: 2, leftOpen: [], kept: [], unprotected: [] });
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
        openOrders: () => (acked() && !cancelled.value ? [anOpen(BTC, 'mm-t1-9')] : []),
        inFlight: () => (acked() ? [] : [{ ref: 'mm-t1-9', kind: 'placeOrder' as const, sentAt: 900 }]),
        keepProtective: true,
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
    expect(result).toEqual({ attempts: 1, leftOpen: [], kept: [], unprotected: [] });
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
    expect(result).toEqual({ attempts: 0, leftOpen: [], kept: [], unprotected: [] });
    expect(clock.slept).toBe(2_000);
    expect(order.record.inFlight()).toHaveLength(1);
  });

  it('are waited for without cancels when shutdown.cancelAllOrders is false', async () => {
    const clock = steppedClock();
    const order = inFlightOrder(clock, 1_500);
    await awaitInFlightOnStop(order.record.inFlight, 10_000, clock);
    expect(clock.slept).toBe(1_500);
    expect(order.record.openOrders()).toEqual([anOpen(BTC, 'mm-t1-9')]);
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

describe('an order a cancel at stop leaves open though the venue has it final', () => {
  it('looks it up, and the venue saying FILLED ends it instead of naming it possibly open', async () => {
    const events = new Subject<UserEvent>();
    const sent: string[] = [];
    const lookups: string[] = [];
    const { kernel } = aRecordingKernelRig([]);
    const gate = new RunMetrics(() => 0).timingGate(new RiskGate());
    const open = [anOpen(BTC, 'mm-t1-c'), anOpen(BTC, 'mm-t1-d')];
    const result = await cancelOpenOrdersOnStop(
      kernel,
      gate,
      {
        events,
        // Accepted, cancelling nothing (the venue's `{"orderIds":[],"clientOrderIds":[]}`): no update comes.
        submit: (command: never) => sent.push((command as { intent: Intent }).intent.ref),
        lookupOrder: (sym, clientOrderId) => {
          lookups.push(clientOrderId);
          return Promise.resolve(
            anOrder({ sym, clientOrderId, orderState: clientOrderId === 'mm-t1-c' ? 'FILLED' : 'OPEN' }),
          );
        },
      },
      { openOrders: () => open, inFlight: () => [], keepProtective: true },
      3_000,
      steppedClock(),
    );
    expect(lookups).toEqual(['mm-t1-c', 'mm-t1-d']);
    expect(result.leftOpen).toEqual(['mm-t1-d']);
    expect(sent.length).toBeGreaterThan(1);
  });
});
