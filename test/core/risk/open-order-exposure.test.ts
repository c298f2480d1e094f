import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D, type Dec, type OrderSide } from '../../../core/model/index.ts';
import { clearlyWithinExposure, exposureAfter } from '../../../core/risk/open-order-exposure.ts';
import type { OrderTerms } from '../../../core/risk/order-terms.ts';
import { anOrder } from '../../kit/order-builders.ts';
import { aRiskView } from '../../kit/risk-view-builder.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';

const restingOrder = fc.record({
  side: fc.constantFrom<OrderSide>('BUY', 'SELL'),
  qty: fc.integer({ min: 1, max: 50 }),
  price: fc.integer({ min: 80, max: 120 }),
  reduceOnly: fc.boolean(),
});

const terms = (side: OrderSide, qty: number, price: number): OrderTerms => ({
  sym: BTC,
  side,
  orderType: 'LIMIT',
  qty: D(qty),
  price: D(price),
  positionSide: 'NONE',
  reduceOnly: false,
});

describe('the gross exposure open orders can reach', () => {
  it('is the worst any set of fills reaches, and the estimate never passes what the exact walk denies', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -50, max: 50 }),
        fc.array(restingOrder, { maxLength: 5 }),
        restingOrder,
        fc.integer({ min: 0, max: 20_000 }),
        (position, resting, order, max) => {
          const view = aRiskView();
          view.setPosition(BTC, String(position));
          view.orders = resting.map((o, i) => ({
            strategyId: 's',
            order: anOrder({
              clientOrderId: `c-${i}`,
              side: o.side,
              orderQty: D(o.qty),
              limitPrice: D(o.price),
              reduceOnly: o.reduceOnly,
            }),
          }));
          const value = D(position).mul(100);
          const current = value.abs();
          const t = terms(order.side, order.qty, order.price);
          const notional = D(order.qty * order.price);
          const after = exposureAfter(current, notional, t, view, undefined) as Dec;
          // Every set of the plain orders (and the order) filling: the leg's value moves by their
          // signed notional; the exact walk is the largest of these.
          const plain = [...resting.filter((o) => !o.reduceOnly), order];
          let worst = current;
          for (let mask = 0; mask < 1 << plain.length; mask++) {
            let moved = value;
            plain.forEach((o, i) => {
              if ((mask & (1 << i)) === 0) return;
              const n = D(o.qty * o.price);
              moved = o.side === 'BUY' ? moved.add(n) : moved.sub(n);
            });
            if (moved.abs().gt(worst)) worst = moved.abs();
          }
          expect(after.toFixed()).toBe(worst.toFixed());
          if (clearlyWithinExposure(current, notional, t, view, undefined, D(max)))
            expect(after.lte(max)).toBe(true);
        },
      ),
    );
  });

  it('counts an order with a modify in flight at the larger qty the modify asks for', () => {
    const view = aRiskView();
    view.orders = [{ strategyId: 's', order: anOrder({ orderState: 'PENDING_REPLACE', orderQty: D(1) }) }];
    view.modifyClaims.set('c-1', D(3));
    const after = exposureAfter(D(0), D(100), terms('BUY', 1, 100), view, undefined);
    expect(after?.toFixed()).toBe('400');
  });

  it('counts an order on a sym the run has no spec of (placed outside it) at contractSize 1, rather than giving up', () => {
    const view = aRiskView();
    view.orders = [
      { strategyId: 'x', order: anOrder({ sym: 'ELSEWHERE', orderQty: D(2), limitPrice: D(50) }) },
    ];
    expect(exposureAfter(D(0), D(100), terms('BUY', 1, 100), view, undefined)?.toFixed()).toBe('200');
    expect(clearlyWithinExposure(D(0), D(100), terms('BUY', 1, 100), view, undefined, D(201))).toBe(true);
  });

  it('decides alone, without the exact walk, for a market maker quoting both sides near the limit', () => {
    // Flat, 10 bids and 10 asks of 1 @ 100: the bids or the asks can fill, not both add.
    const view = aRiskView();
    view.orders = Array.from({ length: 20 }, (_, i) => ({
      strategyId: 's',
      order: anOrder({
        clientOrderId: `q-${i}`,
        side: i % 2 === 0 ? 'BUY' : 'SELL',
        orderQty: D(1),
        limitPrice: D(100),
      }),
    }));
    const bid = terms('BUY', 1, 100);
    expect(exposureAfter(D(0), D(100), bid, view, undefined)?.toFixed()).toBe('1100');
    expect(clearlyWithinExposure(D(0), D(100), bid, view, undefined, D(1500))).toBe(true);
    expect(clearlyWithinExposure(D(0), D(100), bid, view, undefined, D(1100))).toBe(false);
  });

  it('never passes what the exact walk denies, over several syms and hedge legs', () => {
    const leg = fc.record({
      sym: fc.constantFrom(BTC, 'ELSEWHERE'),
      positionSide: fc.constantFrom('NONE', 'LONG', 'SHORT') as fc.Arbitrary<'NONE' | 'LONG' | 'SHORT'>,
    });
    fc.assert(
      fc.property(
        fc.array(fc.record({ leg, qty: fc.integer({ min: -20, max: 20 }) }), { maxLength: 4 }),
        fc.array(fc.record({ leg, order: restingOrder }), { maxLength: 8 }),
        fc.record({ leg, order: restingOrder }),
        fc.integer({ min: 0, max: 20_000 }),
        (positions, resting, next, max) => {
          const view = aRiskView();
          view.references.set('ELSEWHERE', 100);
          for (const p of positions) view.setPosition(p.leg.sym, String(p.qty), p.leg.positionSide);
          view.orders = resting.map((o, i) => ({
            strategyId: 's',
            order: anOrder({
              clientOrderId: `c-${i}`,
              sym: o.leg.sym,
              positionSide: o.leg.positionSide,
              side: o.order.side,
              orderQty: D(o.order.qty),
              limitPrice: D(o.order.price),
              reduceOnly: o.order.reduceOnly,
            }),
          }));
          const current = D(2000);
          const t = {
            ...terms(next.order.side, next.order.qty, next.order.price),
            sym: next.leg.sym,
            positionSide: next.leg.positionSide,
          };
          const notional = D(next.order.qty * next.order.price);
          const after = exposureAfter(current, notional, t, view, undefined) as Dec;
          if (clearlyWithinExposure(current, notional, t, view, undefined, D(max)))
            expect(after.lte(max)).toBe(true);
        },
      ),
    );
  });
});
