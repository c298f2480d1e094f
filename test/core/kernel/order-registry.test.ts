import { describe, expect, it } from 'vitest';
import { OrderRegistry } from '../../../core/kernel/order-registry.ts';
import { D } from '../../../core/model/index.ts';
import { anOrder } from '../../kit/order-builders.ts';

describe('order registry', () => {
  it('forgets the oldest final orders beyond its retention, keeping open ones and newer finals', () => {
    const registry = new OrderRegistry(2);
    registry.own('open', 's');
    registry.applyVenue(anOrder({ clientOrderId: 'open', orderId: 'o0' }));
    for (let i = 1; i <= 4; i++) {
      registry.own(`c${i}`, 's');
      registry.applyVenue(anOrder({ clientOrderId: `c${i}`, orderId: `o${i}`, orderState: 'FILLED' }));
    }
    expect([...registry.byRef.keys()]).toEqual(['open', 'c3', 'c4']);
    expect(registry.byId.has('o1')).toBe(false);
    expect(registry.ownerOf('c1')).toBeUndefined();
    expect(registry.ownerOf('c4')).toBe('s');
    expect([...registry.open.keys()]).toEqual(['open']);
  });

  it("takes an amendment confirmed in the same millisecond through the state machine's rule", () => {
    const registry = new OrderRegistry();
    const open = anOrder({ clientOrderId: 'c1', orderState: 'OPEN', action: 'PLACE', updateAt: 10 });
    const amended = { ...open, limitPrice: D('101'), action: 'AMEND_COMPLETED' as const };
    expect(registry.applyVenue(open)).toBe(true);
    expect(registry.applyVenue(amended)).toBe(true);
    expect(registry.applyVenue(open)).toBe(false);
    expect(registry.byRef.get('c1')?.limitPrice.toFixed()).toBe('101');
  });
});
