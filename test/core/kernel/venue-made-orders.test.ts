import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { StrategyContext } from '../../../core/kernel/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import type { Intent } from '../../../core/model/index.ts';
import { D } from '../../../core/model/index.ts';
import { anAlgoOrder, anAlgoOrderUpdate } from '../../kit/algo-order-builders.ts';
import { anExecution } from '../../kit/execution-builders.ts';
import { aKernelRig, type KernelRig } from '../../kit/kernel-builders.ts';
import { anOrderUpdate, aQuote, BTC, ETH } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';

type Act = (ctx: StrategyContext<unknown, unknown>) => Intent | readonly Intent[] | undefined;

/**
 * Buys 1 BTC at market with a stop-loss at 90 on the first quote (the in-memory venue fills it as
 * order v1 at once), does what `act` says on the second, and logs every order update and fill it
 * is told of as `<strategy> order|fill <ref> ...`.
 */
function entryWithStop(log: string[], act: Act = () => undefined) {
  return defineStrategy({
    name: 'entry-with-stop',
    params: z.object({}),
    onQuote: (ctx, quote) => {
      if (quote.ts === 1)
        return ctx.order.market({ sym: BTC, side: 'BUY', qty: 1, sl: { triggerPrice: 90 } });
      if (quote.ts === 2) return act(ctx);
    },
    onOrder: (ctx, order) => {
      log.push(`${ctx.id} order ${order.clientOrderId} ${order.orderState}`);
    },
    onFill: (ctx, fill) => {
      log.push(`${ctx.id} fill ${fill.clientOrderId} ${fill.quantity.toFixed()}@${fill.price.toFixed()}`);
    },
  });
}

/** The stop-loss the venue attaches to alpha's filled entry (order v1), as it reports it. */
const alphaStop = anAlgoOrder({
  algoOrderId: 'A-7',
  clientAlgoOrderId: 'alpha-1-sl',
  algoOrderType: 'TP_SL',
  attachedOrderId: 'v1',
});

/** alpha (entry with stop) and beta (its own entry, then `betaAct`), after the first quote and the attachment. */
function twoStrategies(log: string[], alphaAct?: Act, betaAct?: Act): KernelRig {
  const rig = aKernelRig([
    { id: 'alpha', strategy: entryWithStop(log, alphaAct) },
    { id: 'beta', strategy: entryWithStop(log, betaAct) },
  ]);
  rig.market.next(aQuote(1, 100));
  rig.kernel.push(anAlgoOrderUpdate(alphaStop, 1));
  return rig;
}

/** The order alpha's stop sends when it fires, as the venue reports it (it names the algo order). */
const stopOrder = anOrder({
  orderId: 'v9',
  clientOrderId: 'alpha-1-sl-trig',
  side: 'SELL',
  orderType: 'MARKET',
  orderState: 'NEW',
  limitPrice: D(0),
  reduceOnly: true,
  algoOrderId: 'A-7',
  createAt: 3,
  updateAt: 3,
});

describe('kernel: orders the venue places on a strategy’s behalf belong to that strategy', () => {
  it('shows a strategy the stop-loss attached to its entry among its open algo orders, and no other strategy', () => {
    const seen: string[] = [];
    const look: Act = (ctx) => {
      seen.push(
        `${ctx.id}: ${
          ctx
            .openAlgoOrders()
            .map((a) => a.clientAlgoOrderId)
            .join(',') || '-'
        }`,
      );
      return undefined;
    };
    const rig = twoStrategies([], look, look);
    rig.market.next(aQuote(2, 100));
    expect(seen).toEqual(['alpha: alpha-1-sl', 'beta: -']);
    expect(rig.kernel.state.ownerOf('alpha-1-sl')).toBe('alpha');
  });

  it('tells the strategy of the order its stop fired and of that order’s fill, and tells no other strategy', () => {
    const log: string[] = [];
    const rig = twoStrategies(log);
    log.length = 0;
    rig.kernel.push(anAlgoOrderUpdate({ ...alphaStop, state: 'TRIGGERED', orderId: 'v9', updateAt: 3 }));
    rig.kernel.push(anOrderUpdate(stopOrder));
    rig.kernel.push({
      kind: 'execution',
      ts: 3,
      recvTs: 3,
      execution: anExecution({
        side: 'SELL',
        quantity: '1',
        price: '90',
        timestamp: 3,
        transactionId: 'x-9',
        orderId: 'v9',
        clientOrderId: 'alpha-1-sl-trig',
      }),
    });
    rig.kernel.push(anOrderUpdate({ ...stopOrder, orderState: 'FILLED', executedQty: D(1), updateAt: 4 }));
    expect(log).toEqual([
      'alpha order alpha-1-sl-trig NEW',
      'alpha fill alpha-1-sl-trig 1@90',
      'alpha order alpha-1-sl-trig FILLED',
    ]);
  });

  it('lets the strategy cancel its own stop-loss, by name and with "cancel all my algo orders" (one by one beside another strategy)', () => {
    const rig = twoStrategies(
      [],
      (ctx) => [ctx.order.cancelAlgo('alpha-1-sl'), ctx.order.cancelAllAlgos()],
      () => undefined,
    );
    rig.market.next(aQuote(2, 100));
    expect(rig.denials).toEqual([]);
    expect(
      rig.venue.submitted
        .filter((c) => c.strategyId === 'alpha')
        .map((c) => `${c.intent.kind} ${'target' in c.intent ? c.intent.target : ''}`),
    ).toEqual(['placeOrder ', 'cancelAlgoOrder alpha-1-sl', 'cancelAlgoOrder alpha-1-sl']);
  });

  it('refuses another strategy’s cancel of the stop-loss, and leaves it out of that strategy’s "cancel all"', () => {
    const rig = twoStrategies([], undefined, (ctx) => [
      ctx.order.cancelAlgo('alpha-1-sl'),
      ctx.order.cancelAllAlgos(),
    ]);
    rig.market.next(aQuote(2, 100));
    expect(rig.denials.map((d) => `${d.strategyId} ${d.check}: ${d.reason}`)).toEqual([
      'beta kernel.ownership: order alpha-1-sl belongs to strategy alpha, not beta',
    ]);
    expect(rig.venue.submitted.filter((c) => c.strategyId === 'beta').map((c) => c.intent.kind)).toEqual([
      'placeOrder',
    ]);
  });

  it('lists a limit order a fired algo order left resting among the strategy’s open orders, and lets it cancel and amend it', () => {
    const open: string[] = [];
    let bar = 0;
    const placer = defineStrategy({
      name: 'placer',
      params: z.object({}),
      onQuote: (ctx) => {
        bar++;
        if (bar === 1) {
          return ctx.order.algo({
            sym: BTC,
            side: 'SELL',
            qty: 1,
            triggerPrice: 104,
            condition: 'GTE',
            price: 106,
          });
        }
        open.push(
          ctx
            .openOrders(BTC)
            .map((o) => `${o.clientOrderId} ${o.orderState}`)
            .join(','),
        );
        if (bar === 2) return ctx.order.modify('A-3-trig', { price: 107 });
        return ctx.order.cancel('A-3-trig');
      },
    });
    const rig = aKernelRig([{ id: 'alpha', strategy: placer }]);
    rig.market.next(aQuote(1, 100));
    rig.kernel.push(
      anAlgoOrderUpdate(anAlgoOrder({ algoOrderId: 'A-3', clientAlgoOrderId: 'alpha-1', updateAt: 1 })),
    );
    // The venue names the child from its own id here (its fallback name): the algoOrderId is the link.
    rig.venue.orders.set(
      'A-3-trig',
      anOrder({
        orderId: 'v5',
        clientOrderId: 'A-3-trig',
        limitPrice: D(106),
        algoOrderId: 'A-3',
        updateAt: 1,
      }),
    );
    rig.kernel.push(anOrderUpdate(rig.venue.orders.get('A-3-trig') as never));
    rig.market.next(aQuote(2, 104));
    rig.market.next(aQuote(3, 104));
    expect(rig.denials).toEqual([]);
    expect(open).toEqual(['A-3-trig OPEN', 'A-3-trig OPEN']);
    expect(rig.kernel.state.orderByRef('A-3-trig')?.limitPrice.toFixed()).toBe('107');
    expect(rig.venue.orders.get('A-3-trig')?.orderState).toBe('CANCELLED');
  });

  it('names the owner from the reference when the venue reports no attachment and no parent link (paper and live)', () => {
    const log: string[] = [];
    const rig = aKernelRig([
      { id: 'alpha', strategy: entryWithStop(log, (ctx) => ctx.order.cancelAlgo('alpha-1-sl')) },
      { id: 'beta', strategy: entryWithStop(log, (ctx) => ctx.order.cancelAlgo('alpha-1-sl')) },
    ]);
    rig.market.next(aQuote(1, 100));
    log.length = 0;
    rig.market.next(aQuote(2, 100));
    const { algoOrderId: _link, ...unlinked } = stopOrder;
    rig.kernel.push(anOrderUpdate(unlinked));
    expect(rig.denials.map((d) => d.strategyId)).toEqual(['beta']);
    expect(rig.venue.submitted.map((c) => `${c.strategyId} ${c.intent.kind}`)).toContain(
      'alpha cancelAlgoOrder',
    );
    expect(log).toEqual(['alpha order alpha-1-sl-trig NEW']);
  });

  it('tells the strategy of the orders its close of several positions became (`<close ref>-1`, `-2`), and not of a look-alike', () => {
    const log: string[] = [];
    const closer = defineStrategy({
      name: 'closer',
      params: z.object({}),
      onQuote: (ctx, quote) => {
        if (quote.ts === 1) {
          return [
            ctx.order.market({ sym: BTC, side: 'BUY', qty: 1 }),
            ctx.order.market({ sym: ETH, side: 'BUY', qty: 1 }),
          ];
        }
        if (quote.ts === 2) return ctx.order.closePositions([BTC, ETH]);
      },
      onOrder: (ctx, order) => {
        log.push(`${ctx.id} order ${order.clientOrderId} ${order.orderState}`);
      },
    });
    const rig = aKernelRig([
      { id: 'alpha', strategy: closer },
      { id: 'beta', strategy: entryWithStop(log) },
    ]);
    rig.market.next(aQuote(1, 100));
    rig.market.next(aQuote(2, 100));
    log.length = 0;
    const close = {
      side: 'SELL' as const,
      orderType: 'MARKET' as const,
      reduceOnly: true,
      orderState: 'NEW' as const,
    };
    rig.kernel.push(
      anOrderUpdate(anOrder({ ...close, orderId: 'v20', clientOrderId: 'alpha-3-1', updateAt: 3 })),
    );
    rig.kernel.push(
      anOrderUpdate(anOrder({ ...close, orderId: 'v21', clientOrderId: 'alpha-3-2', sym: ETH, updateAt: 3 })),
    );
    rig.kernel.push(
      anOrderUpdate(anOrder({ ...close, orderId: 'v22', clientOrderId: 'alpha-1-1', updateAt: 3 })),
    );
    expect(rig.denials).toEqual([]);
    expect(log).toEqual(['alpha order alpha-3-1 NEW', 'alpha order alpha-3-2 NEW']);
  });
});
