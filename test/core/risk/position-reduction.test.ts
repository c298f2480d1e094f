import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D, type Dec, type Intent } from '../../../core/model/index.ts';
import { isRiskReducing, orderTermsOf, RiskGate, reducesPosition } from '../../../core/risk/index.ts';
import { aLimitOrder, aSellStop, from } from '../../kit/intent-builders.ts';
import { anOrder } from '../../kit/order-builders.ts';
import { arbitraryPositionStep, type PositionStep } from '../../kit/position-step-arbitraries.ts';
import { expectApproved, expectDenied } from '../../kit/risk-expectations.ts';
import { aRiskView, type FakeRiskView } from '../../kit/risk-view-builder.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const LOT = D('0.1');

function restingSell(
  ref: string,
  qty: string,
  strategyId = 's1',
  positionSide: 'NONE' | 'LONG' | 'SHORT' = 'NONE',
  reduceOnly = false,
) {
  return {
    strategyId,
    order: anOrder({ side: 'SELL', orderQty: D(qty), clientOrderId: ref, positionSide, reduceOnly }),
  };
}

describe('reducing orders vs resting orders on the same side', () => {
  it('maxPosition denies a sell that, with resting sells, flips past the limit', () => {
    const view = aRiskView();
    view.setPosition(BTC, '1');
    view.orders = [1, 2, 3, 4].map((i) => restingSell(`x${i}`, '1'));
    expectDenied('maxPosition', aLimitOrder({ side: 'SELL', qty: D('1') }), view, {
      limits: { maxPositionQty: '2' },
    });
  });

  it('REDUCING: a sell is not risk-reducing once resting sells cover the position', () => {
    const view = aRiskView();
    view.setPosition(BTC, '2');
    view.orders = [restingSell('x', '2')];
    expect(isRiskReducing(aLimitOrder({ side: 'SELL', qty: D('2') }), view)).toBe(false);
  });

  it('passes ten "reducing" sells in one hook only while the worst case stays within maxPositionQty', () => {
    const view = aRiskView();
    view.setPosition(BTC, '0.05');
    const gate = new RiskGate({ limits: { maxPositionQty: '0.1' } });
    const approved: string[] = [];
    for (let i = 0; i < 10; i++) {
      const intent = aLimitOrder({ ref: `s${i}`, side: 'SELL', qty: D('0.05') });
      if (gate.evaluate(from(intent), view).kind !== 'approved') continue;
      approved.push(intent.ref);
      view.orders.push(restingSell(intent.ref, '0.05'));
    }
    // The first reduces to 0, the next two open a short of 0.05 and 0.1; the rest would pass 0.1.
    expect(approved).toEqual(['s0', 's1', 's2']);
  });

  it('REDUCING state denies a sell that another strategy’s resting sells leave nothing to reduce', () => {
    const view = aRiskView();
    view.setPosition(BTC, '2');
    const gate = new RiskGate();
    gate.reduceOnly('drawdown');
    const sell = aLimitOrder({ side: 'SELL', qty: D('1') });
    expect(gate.evaluate(from(sell), view).kind).toBe('approved');
    view.orders = [restingSell('other', '1.5', 's2')];
    const decision = gate.evaluate(from(sell), view);
    expect(decision.kind === 'denied' ? decision.check : 'approved').toBe('tradingState');
    expect(gate.evaluate(from(aLimitOrder({ side: 'SELL', qty: D('0.5') })), view).kind).toBe('approved');
  });

  it('denies a reduce-only order that, filled first, leaves a plain resting sell to flip the position past the limit', () => {
    const view = aRiskView();
    view.setPosition(BTC, '1');
    view.orders = [restingSell('x', '1')];
    const intent = aLimitOrder({ side: 'SELL', qty: D('1'), reduceOnly: true });
    expectDenied('maxPosition', intent, view, { limits: { maxPositionQty: '0.5' } });
    expect(isRiskReducing(intent, view)).toBe(true);
  });

  it('passes reduce-only orders that together exceed the position: the venue never fills them past it', () => {
    const view = aRiskView();
    view.setPosition(BTC, '1');
    view.orders = [restingSell('tp', '1', 's1', 'NONE', true)];
    expectApproved(aLimitOrder({ side: 'SELL', qty: D('1'), reduceOnly: true }), view, {
      limits: { maxPositionQty: '0.5' },
    });
  });

  it('counts resting orders per leg in BOTH mode, where a leg’s closing order only reduces', () => {
    const view = aRiskView();
    view.mode = 'BOTH';
    view.setPosition(BTC, '2', 'LONG');
    view.setPosition(BTC, '-2', 'SHORT');
    const sellLong = aLimitOrder({ side: 'SELL', qty: D('1'), positionSide: 'LONG' });
    view.orders = [
      {
        strategyId: 's1',
        order: anOrder({ side: 'SELL', orderQty: D('2'), clientOrderId: 'short', positionSide: 'SHORT' }),
      },
    ];
    expect(isRiskReducing(sellLong, view)).toBe(true);
    // A SELL on the LONG leg only closes it (the leg never goes below 0): resting sells on the
    // leg do not make another one opening, under REDUCING or maxPositionQty.
    view.orders.push(restingSell('long', '1.5', 's1', 'LONG'));
    expect(isRiskReducing(sellLong, view)).toBe(true);
    expectApproved(sellLong, view, { limits: { maxPositionQty: '0.5' } });
    // An opening order on a leg still counts that leg's resting orders.
    view.orders.push({
      strategyId: 's1',
      order: anOrder({ side: 'BUY', orderQty: D('1'), clientOrderId: 'add', positionSide: 'LONG' }),
    });
    expectDenied('maxPosition', aLimitOrder({ side: 'BUY', qty: D('1'), positionSide: 'LONG' }), view, {
      limits: { maxPositionQty: '3.5' },
    });
    expectApproved(aLimitOrder({ side: 'BUY', qty: D('0.5'), positionSide: 'LONG' }), view, {
      limits: { maxPositionQty: '3.5' },
    });
  });

  it('counts a modification with its new qty in place of the order it replaces', () => {
    const view = aRiskView();
    view.setPosition(BTC, '2');
    view.orders = [restingSell('mine', '1'), restingSell('theirs', '1', 's2')];
    const reprice: Intent = { kind: 'modifyOrder', ref: 'm1', target: 'mine', sym: BTC, price: D('101') };
    const grow: Intent = { kind: 'modifyOrder', ref: 'm2', target: 'mine', sym: BTC, qty: D('3') };
    expect(isRiskReducing(reprice, view)).toBe(true);
    expectApproved(reprice, view, { limits: { maxPositionQty: '1' } });
    // 2 - (1 + 3) = -2: past the limit of 1 once both sells fill.
    expectDenied('maxPosition', grow, view, { limits: { maxPositionQty: '1' } });
    expectApproved(grow, view, { limits: { maxPositionQty: '2' } });
  });

  it('checks a triggered algo order as the order it sends, against the resting sells', () => {
    const view = aRiskView();
    view.setPosition(BTC, '1');
    view.orders = [restingSell('x', '1')];
    const stop = aSellStop({ reduceOnly: false, qty: D('1') });
    expectDenied('maxPosition', stop, view, { limits: { maxPositionQty: '0.5' } });
    view.orders = [restingSell('x', '1', 's1', 'NONE', true)];
    expectApproved({ ...stop, reduceOnly: true }, view, { limits: { maxPositionQty: '0.5' } });
  });

  it('at strategy scope counts only the strategy’s resting orders; the portfolio limit counts every strategy’s', () => {
    const view = aRiskView();
    view.setPosition(BTC, '1');
    view.orders = [restingSell('theirs', '1', 's2')];
    const sell = aLimitOrder({ side: 'SELL', qty: D('1') });
    expectApproved(sell, view, { strategies: { s1: { maxPositionQty: '0.5' } } });
    expectDenied('maxPosition', sell, view, { limits: { maxPositionQty: '0.5' } });
    const terms = orderTermsOf(sell, view);
    expect(terms !== undefined && reducesPosition(terms, view, 's1')).toBe(true);
    expect(terms !== undefined && reducesPosition(terms, view)).toBe(false);
  });
});

const smaller = (a: Dec, b: Dec): Dec => (a.lt(b) ? a : b);

/** Runs the steps against a gate with the portfolio limit, filling resting orders as told; returns every position step. */
function positionsThrough(view: FakeRiskView, gate: RiskGate, steps: readonly PositionStep[]): [Dec, Dec][] {
  const moves: [Dec, Dec][] = [];
  let n = 0;
  for (const step of steps) {
    const count = view.orders.length;
    if (step.kind === 'order') {
      const ref = `o${n++}`;
      const qty = LOT.mul(step.lots);
      const intent = aLimitOrder({ ref, side: step.side, qty, reduceOnly: step.reduceOnly });
      if (gate.evaluate(from(intent, step.strategyId), view).kind !== 'approved') continue;
      const order = anOrder({
        clientOrderId: ref,
        side: step.side,
        orderQty: qty,
        reduceOnly: step.reduceOnly,
      });
      view.orders.push({ strategyId: step.strategyId, order });
      continue;
    }
    if (count === 0) continue;
    const at = step.pick % count;
    const resting = view.orders[at];
    if (resting === undefined) continue;
    const { order, strategyId } = resting;
    const qty = LOT.mul(step.lots);
    if (step.kind === 'modify') {
      if (qty.lte(order.executedQty)) continue;
      const intent: Intent = {
        kind: 'modifyOrder',
        ref: `m${n++}`,
        target: order.clientOrderId,
        sym: BTC,
        qty,
      };
      if (gate.evaluate(from(intent, strategyId), view).kind === 'approved')
        view.orders[at] = { strategyId, order: { ...order, orderQty: qty } };
      continue;
    }
    const before = view.positionQty(BTC, 'NONE');
    let fill = smaller(qty, order.orderQty.sub(order.executedQty));
    // The venue fills a reduce-only order only up to the position it reduces.
    if (order.reduceOnly) {
      const reducible = (order.side === 'BUY') === before.isNegative() ? before.abs() : D(0);
      fill = smaller(fill, reducible);
    }
    const executedQty = order.executedQty.add(fill);
    if (fill.isZero() || executedQty.eq(order.orderQty)) view.orders.splice(at, 1);
    else view.orders[at] = { strategyId, order: { ...order, executedQty } };
    const after = order.side === 'BUY' ? before.add(fill) : before.sub(fill);
    view.setPosition(BTC, after.toFixed());
    moves.push([before, after]);
  }
  return moves;
}

describe('maxPositionQty over a position’s life', () => {
  it('keeps |position| within the limit, whatever the gate approved fills in whatever order, unless it started above and each fill reduced it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -40, max: 40 }),
        fc.integer({ min: 1, max: 20 }),
        fc.array(arbitraryPositionStep(), { maxLength: 40 }),
        (startLots, maxLots, steps) => {
          const view = aRiskView();
          view.setPosition(BTC, LOT.mul(startLots).toFixed());
          const max = LOT.mul(maxLots);
          const gate = new RiskGate({ limits: { maxPositionQty: max.toFixed() } });
          for (const [before, after] of positionsThrough(view, gate, steps)) {
            const reduced = after.abs().lte(before.abs()) && !after.mul(before).isNegative();
            expect(
              after.abs().lte(max) || reduced,
              `${before.toFixed()} → ${after.toFixed()}, max ${max.toFixed()}`,
            ).toBe(true);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
