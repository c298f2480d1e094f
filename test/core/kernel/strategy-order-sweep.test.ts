import { describe, expect, it } from 'vitest';
import { cancelStrategyOrders } from '../../../core/kernel/index.ts';
import { COMMAND_OUTCOME_UNKNOWN } from '../../../core/model/index.ts';
import { anOrderUpdate, BTC } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';
import { aRestingStrategyRig } from '../../kit/resting-strategy-rig.ts';

const aRestingStrategy = aRestingStrategyRig;

describe('the sweep of a strategy’s orders (a fault, a kill-switch halt)', () => {
  it('cancels its orders and algo orders the venue has not acknowledged yet, not only the known ones', () => {
    const rig = aRestingStrategy();
    expect(cancelStrategyOrders(rig.kernel, ['a'], 'keel-fault-1')).toBe(2);
    expect(rig.sent()).toEqual([
      { kind: 'cancelAlgoOrder', ref: 'keel-fault-1-a1', target: 'a-2', sym: BTC },
      { kind: 'cancelOrders', ref: 'keel-fault-1-1', sym: BTC, targets: ['a-1'] },
    ]);
  });

  it('marks the orders it cancels PENDING_CANCEL and does not cancel them again in the next sweep', () => {
    const rig = aRestingStrategy();
    rig.port.emit(
      anOrderUpdate(
        anOrder({
          clientOrderId: 'a-1',
          orderId: 'o-1',
          limitPrice: rig.kernel.state.orders.byRef.get('a-1')?.limitPrice,
          updateAt: 6,
        }),
      ),
    );
    cancelStrategyOrders(rig.kernel, ['a'], 'keel-fault-1');
    expect(rig.stateOf('a-1')).toBe('PENDING_CANCEL');
    // A second sweep (a trip after a fault) while the first cancel travels: only the algo order again.
    expect(cancelStrategyOrders(rig.kernel, ['a'], 'keel-halt-2')).toBe(1);
    expect(rig.sent().map((i) => i.ref)).toEqual(['keel-fault-1-a1', 'keel-fault-1-1', 'keel-halt-2-a1']);
  });

  it('hands a refusal of its cancel to the owner, undoes PENDING_CANCEL and looks up an unknown outcome', async () => {
    const rig = aRestingStrategy();
    rig.port.emit(
      anOrderUpdate(
        anOrder({
          clientOrderId: 'a-1',
          orderId: 'o-1',
          limitPrice: rig.kernel.state.orders.byRef.get('a-1')?.limitPrice,
          updateAt: 6,
        }),
      ),
    );
    cancelStrategyOrders(rig.kernel, ['a'], 'keel-halt-1');
    rig.port.emit({
      kind: 'commandRejected',
      ts: 7,
      recvTs: 7,
      ref: 'keel-halt-1-1',
      intentKind: 'cancelOrders',
      code: COMMAND_OUTCOME_UNKNOWN,
      message: 'no answer',
    });
    expect(rig.stateOf('a-1')).toBe('OPEN');
    expect(rig.denials.map((d) => `${d.strategyId} ${d.ref} ${d.check}`)).toEqual([
      `a keel-halt-1-1 venue.${COMMAND_OUTCOME_UNKNOWN}`,
    ]);
    await Promise.resolve();
    expect(rig.port.lookups).toEqual([`${BTC}|a-1`]);
  });
});
