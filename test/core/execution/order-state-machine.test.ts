import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyOrderUpdate } from '../../../core/execution/index.ts';
import { D, isFinalOrderState, type Order } from '../../../core/model/index.ts';
import { anOrder } from '../../kit/order-builders.ts';
import { arbitraryScrambledLifecycle } from '../../kit/order-update-arbitraries.ts';

describe('order state machine', () => {
  it('never changes a final order', () => {
    const cancelled = anOrder({ orderState: 'CANCELLED', executedQty: D('0.5'), updateAt: 10 });
    const lateFill = anOrder({ orderState: 'PARTIALLY_FILLED', executedQty: D('0.8'), updateAt: 20 });
    expect(applyOrderUpdate(cancelled, lateFill)).toBe(cancelled);
  });

  it('takes a final update over a live one stamped later with the same executed quantity', () => {
    // an amendment acknowledged at 200, then the venue's CANCELLED stamped 150 arrives
    const open = anOrder({ orderState: 'OPEN', executedQty: D('0.5'), updateAt: 200 });
    const cancelled = anOrder({ orderState: 'CANCELLED', executedQty: D('0.5'), updateAt: 150 });
    expect(applyOrderUpdate(open, cancelled).orderState).toBe('CANCELLED');
  });

  it('absorbs a duplicate and a stale update', () => {
    const partial = anOrder({ orderState: 'PARTIALLY_FILLED', executedQty: D('0.5'), updateAt: 10 });
    const open = anOrder({ orderState: 'OPEN', updateAt: 5 });
    expect(applyOrderUpdate(partial, { ...partial })).toBe(partial);
    expect(applyOrderUpdate(partial, open)).toBe(partial);
  });

  it('prefers more executed quantity over a later timestamp (fills only add)', () => {
    const more = anOrder({ orderState: 'PARTIALLY_FILLED', executedQty: D('0.6'), updateAt: 10 });
    const lessButLater = anOrder({ orderState: 'PARTIALLY_FILLED', executedQty: D('0.4'), updateAt: 11 });
    expect(applyOrderUpdate(more, lessButLater)).toBe(more);
  });

  it('takes an amendment (same executed quantity, later updateAt) and OPEN over NEW at the same instant', () => {
    const open = anOrder({ orderState: 'OPEN', updateAt: 10 });
    const amended = { ...open, limitPrice: D('101'), updateAt: 11 };
    expect(applyOrderUpdate(open, amended)).toBe(amended);
    const fresh = anOrder({ orderState: 'NEW', updateAt: 10 });
    expect(applyOrderUpdate(fresh, open)).toBe(open);
    expect(applyOrderUpdate(open, fresh)).toBe(open);
  });

  it('takes an amendment confirmed in the same millisecond, in whichever order the two updates arrive', () => {
    const open = anOrder({ orderState: 'OPEN', action: 'PLACE', updateAt: 10 });
    const amended: Order = { ...open, limitPrice: D('101'), orderQty: D('2'), action: 'AMEND_COMPLETED' };
    expect(applyOrderUpdate(open, amended)).toBe(amended);
    expect(applyOrderUpdate(amended, open)).toBe(amended);
    expect(applyOrderUpdate(amended, { ...amended })).toBe(amended);
    const samePriceAmend: Order = { ...open, action: 'AMEND_COMPLETED' };
    expect(applyOrderUpdate(open, samePriceAmend)).toBe(open);
  });

  it("lets the venue's own update replace a final state Keel synthesized, and nothing replace the venue's final word", () => {
    const madeUp = anOrder({ orderState: 'REJECTED', orderId: '', updateAt: 30_000, synthesized: true });
    const bookedLate = anOrder({ orderState: 'NEW', updateAt: 31_000 });
    expect(applyOrderUpdate(madeUp, bookedLate)).toBe(bookedLate);
    expect(applyOrderUpdate(madeUp, { ...madeUp, orderState: 'CANCELLED' })).toBe(madeUp);
    const rejected = anOrder({ orderState: 'REJECTED', updateAt: 30_000 });
    expect(applyOrderUpdate(rejected, bookedLate)).toBe(rejected);
  });

  it("ranks an ack Keel built (stamped on receipt) below the venue's update of the same fills, whatever their times", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.constantFrom('NEW' as const, 'OPEN' as const, 'PARTIALLY_FILLED' as const),
        fc.boolean(),
        (ackAt, venueAt, venueState, amend) => {
          const executedQty = venueState === 'PARTIALLY_FILLED' ? D('0.5') : D('0');
          const ack = anOrder({ orderState: 'NEW', executedQty, synthesized: true, updateAt: ackAt });
          const venue = anOrder({
            orderState: venueState,
            executedQty,
            updateAt: venueAt,
            ...(amend ? { action: 'AMEND_COMPLETED' as const, limitPrice: D('101') } : {}),
          });
          expect(applyOrderUpdate(ack, venue)).toBe(venue);
          expect(applyOrderUpdate(venue, ack)).toBe(venue);
        },
      ),
    );
  });

  it('replaces an in-flight placeholder with the venue word', () => {
    const pending = anOrder({ orderState: 'PENDING_NEW', orderId: '', updateAt: 50 });
    const acked = anOrder({ orderState: 'NEW', updateAt: 10 });
    expect(applyOrderUpdate(pending, acked)).toBe(acked);
  });

  it('ends in the same state under any reordering or duplication of a valid update sequence', () => {
    fc.assert(
      fc.property(arbitraryScrambledLifecycle(), ({ valid, delivered }) => {
        let state: Order | undefined;
        let finalSeen: Order | undefined;
        for (const update of delivered) {
          state = applyOrderUpdate(state, update);
          if (finalSeen !== undefined) expect(state).toBe(finalSeen);
          if (isFinalOrderState(state.orderState)) finalSeen = state;
        }
        expect(state).toEqual(valid[valid.length - 1]);
      }),
      { numRuns: 500 },
    );
  });
});
