import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VENUE_ORDER_STATES } from '../../../../core/model/index.ts';
import { DecodeError, decodeWire, orderWireSchema } from '../../../../core/venue/index.ts';
import {
  listedOrderFromWire,
  orderFromWire,
  unlistedOrderFromWire,
} from '../../../../core/venue/mapping/order-mapping.ts';
import { WIRE_ORDER } from '../../../kit/venue-wire-samples.ts';

const unknownState = fc
  .oneof(fc.constantFrom('EXPIRED', 'PENDING_NEW', 'TRIGGERED', 'PARTIALLY_CANCELLED'), fc.string())
  .filter((state) => !(VENUE_ORDER_STATES as readonly string[]).includes(state));
/** Executed quantity of an order of 0.010. */
const executed = fc.constantFrom('0', '0.004', '0.010');

const wire = (orderState: string, executedQty: string) =>
  decodeWire(orderWireSchema, { ...WIRE_ORDER, orderState, executedQty }, 'test');

describe('order states the public venue docs do not list', () => {
  it('decodes such an order, and refuses to map it without knowing whether the venue still lists it open', () => {
    fc.assert(
      fc.property(unknownState, (state) => {
        expect(() => orderFromWire(wire(state, '0'), 'Orders channel data[0]')).toThrow(DecodeError);
        expect(() => orderFromWire(wire(state, '0'), 'Orders channel data[0]')).toThrow(
          /^Orders channel data\[0\]: orderState /,
        );
      }),
    );
  });

  it('takes an order the open-orders list holds as open: PARTIALLY_FILLED once some executed, OPEN before', () => {
    fc.assert(
      fc.property(unknownState, executed, (state, qty) => {
        const order = listedOrderFromWire(wire(state, qty));
        expect(order.orderState).toBe(qty === '0' ? 'OPEN' : 'PARTIALLY_FILLED');
        expect(order.reason).toContain(`orderState ${state},`);
        expect(order.synthesized).toBeUndefined();
      }),
    );
  });

  it('takes an order the open-orders list leaves out as ended: FILLED when all of it executed, CANCELLED otherwise, synthesized', () => {
    fc.assert(
      fc.property(unknownState, executed, (state, qty) => {
        const order = unlistedOrderFromWire(wire(state, qty));
        expect(order.orderState).toBe(qty === '0.010' ? 'FILLED' : 'CANCELLED');
        expect(order).toMatchObject({
          synthesized: true,
          reason: expect.stringContaining(`orderState ${state},`),
        });
      }),
    );
  });

  it('maps the seven public states as they are, wherever the order was read', () => {
    for (const state of VENUE_ORDER_STATES) {
      const known = wire(state, '0.004');
      expect(listedOrderFromWire(known)).toEqual(orderFromWire(known));
      expect(unlistedOrderFromWire(known)).toEqual(orderFromWire(known));
      expect(orderFromWire(known).orderState).toBe(state);
    }
  });
});
