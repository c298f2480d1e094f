import { describe, expect, it } from 'vitest';
import { OrderRegistry } from '../../../core/kernel/order-registry.ts';
import { D } from '../../../core/model/index.ts';
import { anAlgoOrder } from '../../kit/algo-order-builders.ts';
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

  it('forgets the oldest finished algo orders beyond its retention, keeping open ones', () => {
    const registry = new OrderRegistry(1);
    registry.own('open', 's');
    registry.applyAlgo(anAlgoOrder({ algoOrderId: 'A0', clientAlgoOrderId: 'open' }));
    for (let i = 1; i <= 3; i++) {
      registry.own(`a${i}`, 's');
      registry.applyAlgo(
        anAlgoOrder({ algoOrderId: `A${i}`, clientAlgoOrderId: `a${i}`, state: 'CANCELLED' }),
      );
    }
    expect([...registry.algoByRef.keys()]).toEqual(['open', 'a3']);
    expect([...registry.algoByVenueId.keys()]).toEqual(['A0', 'A3']);
    expect(registry.ownerOf('a1')).toBeUndefined();
    expect(registry.ownerOf('a3')).toBe('s');
    expect([...registry.openAlgo.keys()]).toEqual(['open']);
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

  it('files a sym and an owner with no open order nowhere, and reuses the emptied group for the next order', () => {
    const registry = new OrderRegistry();
    registry.own('c1', 's');
    registry.applyVenue(anOrder({ clientOrderId: 'c1', orderId: 'o1', sym: 'X', orderState: 'OPEN' }));
    const bySym = registry.openBySym.get('X');
    const byOwner = registry.openByOwner.get('s');
    registry.applyVenue(anOrder({ clientOrderId: 'c1', orderId: 'o1', sym: 'X', orderState: 'FILLED' }));
    expect(registry.openBySym.size).toBe(0);
    expect(registry.openByOwner.size).toBe(0);
    registry.own('c2', 't');
    registry.applyVenue(anOrder({ clientOrderId: 'c2', orderId: 'o2', sym: 'Y', orderState: 'OPEN' }));
    expect([...registry.openBySym.keys()]).toEqual(['Y']);
    expect([...(registry.openBySym.get('Y') ?? [])]).toEqual(['c2']);
    expect([...(registry.openByOwner.get('t') ?? [])]).toEqual(['c2']);
    // No Set made per order: a strategy trading one order at a time made two with every order.
    expect(registry.openBySym.get('Y')).toBe(bySym);
    expect(registry.openByOwner.get('t')).toBe(byOwner);
  });

  describe('states Keel synthesized', () => {
    it('lets the venue’s later word supersede a REJECTED that Keel synthesized, and files the order open again', () => {
      const registry = new OrderRegistry();
      registry.own('late-1', 's');
      const verdict = anOrder({
        clientOrderId: 'late-1',
        orderId: '',
        orderState: 'REJECTED',
        synthesized: true,
      });
      expect(registry.applyVenue(verdict)).toBe(true);
      expect(
        registry.applyVenue(anOrder({ clientOrderId: 'late-1', orderId: 'o9', orderState: 'NEW' })),
      ).toBe(true);
      expect(
        registry.applyVenue(anOrder({ clientOrderId: 'late-1', orderId: 'o9', orderState: 'OPEN' })),
      ).toBe(true);
      expect(registry.byRef.get('late-1')?.orderState).toBe('OPEN');
      expect([...(registry.openByOwner.get('s')?.keys() ?? [])]).toEqual(['late-1']);
    });

    it('keeps a REJECTED the venue itself sent final, and never lets a synthesized state undo a venue final', () => {
      const registry = new OrderRegistry();
      expect(registry.applyVenue(anOrder({ clientOrderId: 'r-1', orderState: 'REJECTED' }))).toBe(true);
      expect(registry.applyVenue(anOrder({ clientOrderId: 'r-1', orderState: 'NEW' }))).toBe(false);
      registry.applyVenue(anOrder({ clientOrderId: 'f-1', orderState: 'FILLED' }));
      expect(
        registry.applyVenue(anOrder({ clientOrderId: 'f-1', orderState: 'CANCELLED', synthesized: true })),
      ).toBe(false);
      expect(registry.byRef.get('r-1')?.orderState).toBe('REJECTED');
      expect(registry.byRef.get('f-1')?.orderState).toBe('FILLED');
    });
  });

  describe('orders the venue places on a strategy’s behalf', () => {
    /** A registry holding strategy s's filled entry `entry` (order o1). */
    function withFilledEntry(retainFinal?: number): OrderRegistry {
      const registry = new OrderRegistry(retainFinal);
      registry.own('entry', 's');
      registry.applyVenue(anOrder({ clientOrderId: 'entry', orderId: 'o1', orderState: 'FILLED' }));
      return registry;
    }

    it('gives an attachment the owner of the order its attachedOrderId names, whatever its reference', () => {
      const registry = withFilledEntry();
      registry.own('entry-sl', 't');
      registry.applyAlgo(
        anAlgoOrder({ clientAlgoOrderId: 'o1-sl', attachedOrderId: 'o1', algoOrderType: 'TP_SL' }),
      );
      expect(registry.ownerOf('o1-sl')).toBe('s');
      expect(registry.ownerOf('entry-sl')).toBe('t');
    });

    it('gives a fired order the owner of the algo order its algoOrderId names, through an attachment to the entry', () => {
      const registry = withFilledEntry();
      registry.applyAlgo(
        anAlgoOrder({ algoOrderId: 'A-2', clientAlgoOrderId: 'entry-sl', algoOrderType: 'TP_SL' }),
      );
      registry.applyVenue(anOrder({ clientOrderId: 'A-2-trig', orderId: 'o2', algoOrderId: 'A-2' }));
      expect(registry.ownerOf('A-2-trig')).toBe('s');
      expect([...(registry.openByOwner.get('s')?.keys() ?? [])]).toEqual(['A-2-trig']);
    });

    it('reads the parent from the venue’s reference (`<ref>-tp`, `<orderId>-sl`, `<algo ref>-trig`) when no link is sent', () => {
      const registry = withFilledEntry();
      expect(registry.ownerOf('entry-tp')).toBe('s');
      expect(registry.ownerOf('o1-sl')).toBe('s');
      expect(registry.ownerOf('entry-sl-trig')).toBe('s');
      expect(registry.ownerOf('other-sl')).toBeUndefined();
      expect(registry.ownerOf('-trig')).toBeUndefined();
    });

    it('keeps a venue-made order its owner’s after the parent is forgotten', () => {
      const registry = withFilledEntry(1);
      registry.applyAlgo(
        anAlgoOrder({ algoOrderId: 'A-2', clientAlgoOrderId: 'entry-sl', attachedOrderId: 'o1' }),
      );
      registry.applyVenue(anOrder({ clientOrderId: 'entry-sl-trig', orderId: 'o2', algoOrderId: 'A-2' }));
      registry.own('later', 's');
      registry.applyVenue(anOrder({ clientOrderId: 'later', orderId: 'o3', orderState: 'FILLED' }));
      expect(registry.byRef.has('entry')).toBe(false);
      registry.applyVenue(
        anOrder({ clientOrderId: 'entry-sl-trig', orderId: 'o2', orderState: 'FILLED', updateAt: 2_000 }),
      );
      expect(registry.ownerOf('entry-sl')).toBe('s');
      expect(registry.ownerOf('entry-sl-trig')).toBe('s');
    });

    it('leaves a venue-made order without an owner when its parent was forgotten before it came (Keel’s choice)', () => {
      const registry = withFilledEntry(1);
      registry.own('later', 's');
      registry.applyVenue(anOrder({ clientOrderId: 'later', orderId: 'o3', orderState: 'FILLED' }));
      registry.applyAlgo(
        anAlgoOrder({ algoOrderId: 'A-2', clientAlgoOrderId: 'entry-sl', attachedOrderId: 'o1' }),
      );
      expect(registry.ownerOf('entry-sl')).toBeUndefined();
      expect(registry.openByOwner.size).toBe(0);
    });
  });
});
