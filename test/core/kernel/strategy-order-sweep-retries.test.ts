import { describe, expect, it } from 'vitest';
import { cancelStrategyOrders, type SweepFailure } from '../../../core/kernel/index.ts';
import type { Intent } from '../../../core/model/index.ts';
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
  return { ...rig, failures, refuse };
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
