import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { countOpenAlgoOrdersOf } from '../../../core/kernel/open-order-queries.ts';
import { OrderRegistry } from '../../../core/kernel/order-registry.ts';
import { type AlgoOrderState, D } from '../../../core/model/index.ts';
import { RiskGate, type RiskGateConfigInput } from '../../../core/risk/index.ts';
import { anAlgoOrder, anAlgoOrderUpdate } from '../../kit/algo-order-builders.ts';
import { aRecordingKernelRig } from '../../kit/kernel-builders.ts';
import { anOrderUpdate, aQuote, BTC } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';

/** A take-profit or stop-loss leg the venue attached to the filled order `o-1` (`s-1`). */
const leg = (clientAlgoOrderId: string, triggerPrice: number) =>
  anAlgoOrder({
    clientAlgoOrderId,
    algoOrderId: `A-${clientAlgoOrderId}`,
    attachedOrderId: 'o-1',
    triggerPrice: D(triggerPrice),
  });

/**
 * A kernel whose strategy `s` buys with a take-profit and a stop-loss at the first quote (the
 * venue fills it and attaches the pair) and rests one more bid at each later quote.
 */
function aBracketThenBids(risk: RiskGateConfigInput) {
  const strategy = defineStrategy({
    name: 'bracket-then-bids',
    params: z.object({}),
    onQuote: (ctx, quote) =>
      quote.ts === 1_000
        ? ctx.order.market({
            sym: BTC,
            side: 'BUY',
            qty: 1,
            tp: { triggerPrice: 120 },
            sl: { triggerPrice: 90 },
          })
        : ctx.order.limit({ sym: BTC, side: 'BUY', qty: 0.1, price: 99 }),
  });
  const rig = aRecordingKernelRig([{ id: 's', strategy }], { gate: new RiskGate(risk) });
  rig.market.next(aQuote(1_000, 100));
  const filled = anOrder({
    clientOrderId: 's-1',
    orderId: 'o-1',
    orderType: 'MARKET',
    orderState: 'FILLED',
    executedQty: D(1),
    updateAt: 1_100,
  });
  rig.port.emit(anOrderUpdate(filled));
  rig.port.emit(anAlgoOrderUpdate(leg('s-1-tp', 120)));
  rig.port.emit(anAlgoOrderUpdate(leg('s-1-sl', 90)));
  return rig;
}

describe('kernel: maxOpenOrders and an attached take-profit / stop-loss pair', () => {
  it.each([
    ['the portfolio', { limits: { maxOpenOrders: 2 } }],
    ['the strategy', { strategies: { s: { maxOpenOrders: 2 } } }],
  ] as const)(
    'counts the pair as one open order under %s limit (only one of them can fire)',
    (_scope, risk) => {
      const rig = aBracketThenBids(risk);
      expect(rig.kernel.state.openAlgoOrders('s')).toHaveLength(2);
      rig.market.next(aQuote(2_000, 100));
      rig.market.next(aQuote(3_000, 100));
      expect(rig.port.submitted.map((c) => c.intent.ref)).toEqual(['s-1', 's-2']);
      expect(rig.denials.map((d) => `${d.ref} ${d.check}`)).toEqual(['s-3 maxOpenOrders']);
      // One leg fired (its order placed), the other cancelled: the pair is gone, its slot free.
      rig.port.emit(anAlgoOrderUpdate({ ...leg('s-1-tp', 120), state: 'TRIGGERED', updateAt: 3_100 }));
      rig.port.emit(anAlgoOrderUpdate({ ...leg('s-1-sl', 90), state: 'CANCELLED', updateAt: 3_100 }));
      expect(rig.kernel.state.countOpenAlgoOrders()).toBe(0);
      expect(rig.kernel.state.countOpenAlgoOrders('s')).toBe(0);
    },
  );
});

describe('order registry: open algo orders, attached pairs counted once', () => {
  it('equals the number of lone open algo orders plus parents with an open leg, through any updates', () => {
    const states: AlgoOrderState[] = ['NEW', 'TRIGGERED', 'CANCELLED'];
    const update = fc.record({
      algo: fc.nat(5),
      parent: fc.option(fc.nat(2), { nil: undefined }),
      state: fc.constantFrom(...states),
    });
    fc.assert(
      fc.property(fc.array(update, { maxLength: 40 }), (updates) => {
        const orders = new OrderRegistry();
        orders.own('a-0', 's');
        updates.forEach(({ algo, parent, state }, at) => {
          const ref = `a-${algo}`;
          // A leg's parent never changes: the first update of an algo order names it.
          const first = orders.algoByRef.get(ref);
          const attachedOrderId =
            first === undefined ? (parent === undefined ? undefined : `o-${parent}`) : first.attachedOrderId;
          orders.applyAlgo(
            anAlgoOrder({
              clientAlgoOrderId: ref,
              algoOrderId: `A-${algo}`,
              state,
              updateAt: 1_000 + at,
              ...(attachedOrderId === undefined ? {} : { attachedOrderId }),
            }),
          );
        });
        const open = [...orders.openAlgo.values()];
        const expected = (list: typeof open) =>
          list.filter((a) => a.attachedOrderId === undefined).length +
          new Set(list.flatMap((a) => (a.attachedOrderId === undefined ? [] : [a.attachedOrderId]))).size;
        expect(countOpenAlgoOrdersOf(orders)).toBe(expected(open));
        expect(countOpenAlgoOrdersOf(orders, 's')).toBe(
          expected(open.filter((a) => a.clientAlgoOrderId === 'a-0')),
        );
      }),
    );
  });
});
