import { describe, expect, it } from 'vitest';
import { cancelStrategyOrders, SWEEP_WORD_WAIT_MS, type SweepFailure } from '../../../core/kernel/index.ts';
import type { Intent } from '../../../core/model/index.ts';
import { anAlgoOrder, anAlgoOrderUpdate } from '../../kit/algo-order-builders.ts';
import { anOrderUpdate, aQuote, BTC } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';
import { aRestingStrategyRig } from '../../kit/resting-strategy-rig.ts';

/** {@link aRestingStrategyRig} with the bid `a-1` acknowledged, the sweep failures collected and a refusal helper. */
function aSweptStrategy() {
  const rig = aRestingStrategyRig();
  const failures: SweepFailure[] = [];
  rig.kernel.sweepFailures.subscribe((failure) => failures.push(failure));
  const price = rig.kernel.state.orders.byRef.get('a-1')?.limitPrice;
  rig.port.emit(
    anOrderUpdate(anOrder({ clientOrderId: 'a-1', orderId: 'o-1', limitPrice: price, updateAt: 6 })),
  );
  const refuse = (ref: string, intentKind: Intent['kind'], code = 429, ts = 10) =>
    rig.port.emit({
      kind: 'commandRejected',
      ts,
      recvTs: ts,
      ref,
      intentKind,
      code,
      message: 'too many requests',
    });
  /** The venue's word on `a-1` (a lookup's answer, a push), at `ts`: as the kernel holds it unless told. */
  const bidSays = (ts: number, orderState: 'OPEN' | 'CANCELLED' = 'OPEN') =>
    rig.port.emit(
      anOrderUpdate(
        anOrder({ clientOrderId: 'a-1', orderId: 'o-1', limitPrice: price, orderState, updateAt: 6 }),
        ts,
      ),
    );
  return { ...rig, failures, refuse, bidSays };
}

describe('a sweep’s cancel the venue refuses', () => {
  it('is sent again after a backoff on the run’s clock while its order is still open', () => {
    const rig = aSweptStrategy();
    cancelStrategyOrders(rig.kernel, ['a'], 'keel-halt-1');
    rig.refuse('keel-halt-1-1', 'cancelOrders');
    expect(rig.stateOf('a-1')).toBe('OPEN');
    expect(rig.sent().map((i) => i.ref)).toEqual(['keel-halt-1-a1', 'keel-halt-1-1']);
    rig.market.next(aQuote(500, 100));
    expect(rig.sent().map((i) => i.ref)).toEqual(['keel-halt-1-a1', 'keel-halt-1-1']);
    rig.market.next(aQuote(1_100, 100));
    expect(rig.sent().slice(2)).toEqual([
      { kind: 'cancelOrders', ref: 'keel-halt-1-1-r1', sym: BTC, targets: ['a-1'] },
    ]);
    expect(rig.stateOf('a-1')).toBe('PENDING_CANCEL');
  });

  it('is not sent again when the order ended meanwhile, nor when the venue says it has no such order', () => {
    const rig = aSweptStrategy();
    cancelStrategyOrders(rig.kernel, ['a'], 'keel-halt-1');
    rig.refuse('keel-halt-1-1', 'cancelOrders');
    rig.refuse('keel-halt-1-a1', 'cancelAlgoOrder', 401018);
    const price = rig.kernel.state.orders.byRef.get('a-1')?.limitPrice;
    rig.port.emit(
      anOrderUpdate(
        anOrder({
          clientOrderId: 'a-1',
          orderId: 'o-1',
          limitPrice: price,
          orderState: 'FILLED',
          updateAt: 20,
        }),
      ),
    );
    rig.market.next(aQuote(60_000, 100));
    expect(rig.sent().map((i) => i.ref)).toEqual(['keel-halt-1-a1', 'keel-halt-1-1']);
    expect(rig.failures).toEqual([]);
  });

  it('retries an algo order’s cancel too', () => {
    const rig = aSweptStrategy();
    cancelStrategyOrders(rig.kernel, ['a'], 'keel-halt-1');
    rig.refuse('keel-halt-1-a1', 'cancelAlgoOrder');
    rig.market.next(aQuote(1_100, 100));
    expect(rig.sent().slice(2)).toEqual([
      { kind: 'cancelAlgoOrder', ref: 'keel-halt-1-a1-r1', target: 'a-2', sym: BTC },
    ]);
  });

  it('gives up after three more refusals, backing off, and reports the orders it could not sweep', () => {
    const rig = aSweptStrategy();
    cancelStrategyOrders(rig.kernel, ['a'], 'keel-halt-1');
    let ts = 10;
    let ref = 'keel-halt-1-1';
    const sentAt: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      rig.refuse(ref, 'cancelOrders', 429, ts);
      const before = rig.sent().length;
      while (rig.sent().length === before && ts < 100_000) {
        ts += 100;
        rig.market.next(aQuote(ts, 100));
      }
      sentAt.push(ts);
      ref = `keel-halt-1-1-r${attempt}`;
      expect(rig.sent().at(-1)?.ref).toBe(ref);
    }
    // Backing off: 1 s, 2 s, 4 s after each refusal.
    expect(sentAt).toEqual([1_010, 3_010, 7_010]);
    rig.refuse(ref, 'cancelOrders', 429, ts);
    rig.market.next(aQuote(ts + 60_000, 100));
    expect(rig.sent().map((i) => i.ref)).toHaveLength(5);
    expect(rig.failures).toEqual([
      expect.objectContaining({ strategyId: 'a', targets: ['a-1'], attempts: 4, code: 429 }),
    ]);
    expect(rig.failures[0]?.reason).toMatch(/a-1 .*could not be cancelled/);
  });
});

/**
 * A sweep's cancel refused as "order not found" (401018) has its order looked up (the live
 * adapter asks the venue, whose read side may lag or whose batch cancel may have missed it): when
 * the venue's word says the order is still open, the sweep must cancel it again rather than leave
 * it working with nobody managing it.
 */
describe('a sweep’s cancel the venue refuses as not found', () => {
  it('is sent again once the venue says the order is still open', () => {
    const rig = aSweptStrategy();
    cancelStrategyOrders(rig.kernel, ['a'], 'keel-halt-1');
    rig.refuse('keel-halt-1-1', 'cancelOrders', 401018);
    rig.market.next(aQuote(5_000, 100));
    expect(rig.sent().map((i) => i.ref)).toEqual(['keel-halt-1-a1', 'keel-halt-1-1']);
    rig.bidSays(5_500);
    rig.market.next(aQuote(5_600, 100));
    expect(rig.sent().slice(2)).toEqual([
      { kind: 'cancelOrders', ref: 'keel-halt-1-1-r1', sym: BTC, targets: ['a-1'] },
    ]);
  });

  it('is sent again for an algo order the venue says is still open', () => {
    const rig = aSweptStrategy();
    cancelStrategyOrders(rig.kernel, ['a'], 'keel-halt-1');
    rig.refuse('keel-halt-1-a1', 'cancelAlgoOrder', 401018);
    rig.port.emit(
      anAlgoOrderUpdate(anAlgoOrder({ clientAlgoOrderId: 'a-2', algoOrderId: 'A-2', updateAt: 20 })),
    );
    rig.market.next(aQuote(2_000, 100));
    expect(rig.sent().slice(2)).toEqual([
      { kind: 'cancelAlgoOrder', ref: 'keel-halt-1-a1-r1', target: 'a-2', sym: BTC },
    ]);
  });

  it('is not sent again when the venue says the order ended', () => {
    const rig = aSweptStrategy();
    cancelStrategyOrders(rig.kernel, ['a'], 'keel-halt-1');
    rig.refuse('keel-halt-1-1', 'cancelOrders', 401018);
    rig.bidSays(500, 'CANCELLED');
    rig.market.next(aQuote(10 + SWEEP_WORD_WAIT_MS + 1, 100));
    expect(rig.sent().map((i) => i.ref)).toEqual(['keel-halt-1-a1', 'keel-halt-1-1']);
    expect(rig.failures).toEqual([]);
  });

  it('reports the order when the venue says nothing of it for SWEEP_WORD_WAIT_MS', () => {
    const rig = aSweptStrategy();
    cancelStrategyOrders(rig.kernel, ['a'], 'keel-halt-1');
    rig.refuse('keel-halt-1-1', 'cancelOrders', 401018);
    rig.market.next(aQuote(10 + SWEEP_WORD_WAIT_MS, 100));
    expect(rig.failures).toEqual([]);
    rig.market.next(aQuote(10 + SWEEP_WORD_WAIT_MS + 1, 100));
    expect(rig.failures).toEqual([
      expect.objectContaining({ strategyId: 'a', targets: ['a-1'], attempts: 1, code: 401018 }),
    ]);
    expect(rig.failures[0]?.reason).toMatch(/a-1 .*may still be working/);
  });

  it('reports the order, retries spent, when the venue still says it is open', () => {
    const rig = aSweptStrategy();
    cancelStrategyOrders(rig.kernel, ['a'], 'keel-halt-1');
    let ts = 10;
    let ref = 'keel-halt-1-1';
    for (let attempt = 1; attempt <= 3; attempt++) {
      rig.refuse(ref, 'cancelOrders', 401018, ts);
      rig.bidSays(ts + 100);
      ts += 10_000;
      rig.market.next(aQuote(ts, 100));
      ref = `keel-halt-1-1-r${attempt}`;
      expect(rig.sent().at(-1)?.ref).toBe(ref);
    }
    rig.refuse(ref, 'cancelOrders', 401018, ts);
    rig.bidSays(ts + 100);
    rig.market.next(aQuote(ts + 60_000, 100));
    expect(rig.sent()).toHaveLength(5);
    expect(rig.failures).toEqual([
      expect.objectContaining({ strategyId: 'a', targets: ['a-1'], attempts: 4, code: 401018 }),
    ]);
  });
});
