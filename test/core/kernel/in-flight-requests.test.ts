import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InFlightRequests } from '../../../core/kernel/in-flight-requests.ts';
import type { IntentDenied, StrategyContext } from '../../../core/kernel/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import { OrderRegistry } from '../../../core/kernel/order-registry.ts';
import type { Intent, Order } from '../../../core/model/index.ts';
import { COMMAND_NOT_APPLIED, COMMAND_OUTCOME_UNKNOWN, D } from '../../../core/model/index.ts';
import { anAlgoOrder, anAlgoOrderUpdate } from '../../kit/algo-order-builders.ts';
import { aRecordingKernelRig } from '../../kit/kernel-builders.ts';
import { anOrderUpdate, aQuote, BTC } from '../../kit/kernel-events.ts';
import { anOrder } from '../../kit/order-builders.ts';

type Ctx = StrategyContext<unknown, unknown>;

const flushPromises = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

/**
 * A kernel whose strategy `s` rests a bid `s-1` at the first quote (the venue acknowledges it
 * OPEN) and, at each later quote, sends what `act` returns.
 */
function aRestingBid(act: (ctx: Ctx, quoteTs: number) => Intent | readonly Intent[] | undefined) {
  const denials: IntentDenied[] = [];
  const seen: string[] = [];
  const strategy = defineStrategy({
    name: 'resting-bid',
    params: z.object({}),
    onQuote: (ctx, quote) =>
      quote.ts === 1_000
        ? ctx.order.limit({ sym: BTC, side: 'BUY', qty: 1, price: 100 })
        : act(ctx, quote.ts),
    onDenied: (_ctx, denial) => {
      denials.push(denial);
    },
    onOrder: (_ctx, order) => {
      seen.push(`${order.clientOrderId} ${order.orderState}`);
    },
  });
  const { kernel, port, market } = aRecordingKernelRig([{ id: 's', strategy }]);
  market.next(aQuote(1_000, 100));
  const open = anOrder({ clientOrderId: 's-1', orderId: 'o-1', updateAt: 1_000 });
  port.emit(anOrderUpdate(open));
  const stateOf = (ref = 's-1') => kernel.state.orders.byRef.get(ref)?.orderState;
  const refuse = (ref: string, intentKind: Intent['kind'], code: number, message: string) =>
    port.emit({ kind: 'commandRejected', ts: 3_000, recvTs: 3_000, ref, intentKind, code, message });
  return { kernel, port, market, denials, seen, open, stateOf, refuse };
}

describe('kernel: the qty a modify in flight claims', () => {
  it('is the largest the modifies in flight ask for, until the venue answers or refuses them', () => {
    const rig = aRestingBid((ctx, ts) =>
      ts === 2_000
        ? [ctx.order.modify('s-1', { qty: 3 }), ctx.order.modify('s-1', { qty: 2 })]
        : ts === 4_000
          ? ctx.order.modify('s-1', { qty: 5 })
          : undefined,
    );
    const claimed = () => {
      const order = rig.kernel.state.orders.byRef.get('s-1') as Order;
      return rig.kernel.state.inFlightModifyQty(order)?.toFixed();
    };
    expect(claimed()).toBeUndefined();
    rig.market.next(aQuote(2_000, 100));
    expect(claimed()).toBe('3');
    rig.refuse('s-2', 'modifyOrder', 400001, 'refused');
    // One of the two is still in flight: the claim stays (at most too large, never too small).
    expect(claimed()).toBe('3');
    rig.refuse('s-3', 'modifyOrder', 400001, 'refused');
    expect(claimed()).toBeUndefined();
    rig.market.next(aQuote(4_000, 100));
    expect(claimed()).toBe('5');
    rig.port.emit(anOrderUpdate({ ...rig.open, orderQty: D(5), updateAt: 4_001 }));
    expect(claimed()).toBeUndefined();
  });
});

describe('kernel: modify and cancel requests the venue refuses or never answers', () => {
  it('puts a refused modify back to the venue word (OPEN) and tells the strategy why', () => {
    const rig = aRestingBid((ctx, ts) =>
      ts === 2_000 ? ctx.order.modify('s-1', { price: 101 }) : undefined,
    );
    rig.market.next(aQuote(2_000, 100));
    expect(rig.stateOf()).toBe('PENDING_REPLACE');
    rig.refuse('s-2', 'modifyOrder', 400001, 'post-only order would take liquidity');
    expect(rig.stateOf()).toBe('OPEN');
    expect(rig.kernel.state.orders.byRef.get('s-1')?.limitPrice.toString()).toBe('100');
    expect(rig.denials).toHaveLength(1);
    expect(rig.denials[0]).toMatchObject({
      strategyId: 's',
      ref: 's-2',
      intentKind: 'modifyOrder',
      source: 'venue',
    });
    expect(rig.denials[0]?.check).toBe('venue.400001');
    expect(rig.denials[0]?.reason).toMatch(/post-only order would take liquidity/);
  });

  it('puts a refused cancel back to PARTIALLY_FILLED when that was the venue word', () => {
    const rig = aRestingBid((ctx, ts) => (ts === 2_000 ? ctx.order.cancel('s-1') : undefined));
    const partly = {
      ...rig.open,
      orderState: 'PARTIALLY_FILLED',
      executedQty: D('0.4'),
      updateAt: 1_500,
    } as Order;
    rig.port.emit(anOrderUpdate(partly));
    rig.market.next(aQuote(2_000, 100));
    expect(rig.stateOf()).toBe('PENDING_CANCEL');
    rig.refuse('s-2', 'cancelOrder', 401018, 'order not found');
    expect(rig.stateOf()).toBe('PARTIALLY_FILLED');
    expect(rig.denials.map((d) => d.check)).toEqual(['venue.401018']);
  });

  it('lets a venue update that came before the refusal stand', () => {
    const rig = aRestingBid((ctx, ts) =>
      ts === 2_000 ? ctx.order.modify('s-1', { price: 101 }) : undefined,
    );
    rig.market.next(aQuote(2_000, 100));
    const partly = {
      ...rig.open,
      orderState: 'PARTIALLY_FILLED',
      executedQty: D('0.4'),
      updateAt: 2_500,
    } as Order;
    rig.port.emit(anOrderUpdate(partly));
    rig.refuse('s-2', 'modifyOrder', 400001, 'bad parameters');
    expect(rig.stateOf()).toBe('PARTIALLY_FILLED');
    expect(rig.kernel.state.orders.byRef.get('s-1')?.executedQty.toString()).toBe('0.4');
  });

  it('keeps a modify in flight through a fill on the old terms, and ends it at the amendment', () => {
    const rig = aRestingBid((ctx, ts) =>
      ts === 2_000 ? ctx.order.modify('s-1', { price: 101 }) : undefined,
    );
    rig.market.next(aQuote(2_000, 100));
    const partly = { ...rig.open, orderState: 'PARTIALLY_FILLED', executedQty: D('0.4'), updateAt: 2_500 };
    rig.port.emit(anOrderUpdate({ ...partly, action: 'FILL' } as Order));
    expect(rig.stateOf()).toBe('PENDING_REPLACE');
    expect(rig.kernel.state.orders.byRef.get('s-1')?.executedQty.toString()).toBe('0.4');
    expect(rig.seen).toContain('s-1 PARTIALLY_FILLED');
    rig.port.emit(
      anOrderUpdate({ ...partly, limitPrice: D(101), action: 'AMEND_COMPLETED', updateAt: 2_600 } as Order),
    );
    expect(rig.stateOf()).toBe('PARTIALLY_FILLED');
    expect(rig.kernel.state.orders.byRef.get('s-1')?.limitPrice.toString()).toBe('101');
  });

  it('keeps a cancel in flight through a fill, and ends it at the final state', () => {
    const rig = aRestingBid((ctx, ts) => (ts === 2_000 ? ctx.order.cancel('s-1') : undefined));
    rig.market.next(aQuote(2_000, 100));
    const partly = { ...rig.open, orderState: 'PARTIALLY_FILLED', executedQty: D('0.4'), updateAt: 2_500 };
    rig.port.emit(anOrderUpdate(partly as Order));
    expect(rig.stateOf()).toBe('PENDING_CANCEL');
    rig.port.emit(anOrderUpdate({ ...partly, orderState: 'CANCELLED', updateAt: 2_600 } as Order));
    expect(rig.stateOf()).toBe('CANCELLED');
  });

  it('lets an update on new terms, or a final fill, end a modify in flight', () => {
    const rig = aRestingBid((ctx, ts) =>
      ts === 2_000 ? ctx.order.modify('s-1', { price: 101 }) : undefined,
    );
    rig.market.next(aQuote(2_000, 100));
    rig.port.emit(anOrderUpdate({ ...rig.open, limitPrice: D(101), updateAt: 2_500 }));
    expect(rig.stateOf()).toBe('OPEN');
    const again = aRestingBid((ctx, ts) =>
      ts === 2_000 ? ctx.order.modify('s-1', { price: 101 }) : undefined,
    );
    again.market.next(aQuote(2_000, 100));
    again.port.emit(
      anOrderUpdate({
        ...again.open,
        orderState: 'FILLED',
        executedQty: D(1),
        action: 'FILL',
        updateAt: 2_500,
      }),
    );
    expect(again.stateOf()).toBe('FILLED');
  });

  it('keeps the order in flight while another request on it is unanswered', () => {
    const rig = aRestingBid((ctx, ts) =>
      ts === 2_000
        ? ctx.order.modify('s-1', { price: 101 })
        : ts === 2_100
          ? ctx.order.cancel('s-1')
          : undefined,
    );
    rig.market.next(aQuote(2_000, 100));
    rig.market.next(aQuote(2_100, 100));
    rig.refuse('s-2', 'modifyOrder', 400001, 'bad parameters');
    expect(rig.stateOf()).toBe('PENDING_CANCEL');
    rig.refuse('s-3', 'cancelOrder', 400001, 'bad parameters');
    expect(rig.stateOf()).toBe('OPEN');
    expect(rig.denials.map((d) => d.ref)).toEqual(['s-2', 's-3']);
  });

  it('looks up the orders of a cancel whose answer never came, and shows what the venue says', async () => {
    const rig = aRestingBid((ctx, ts) => (ts === 2_000 ? ctx.order.cancelMany({ sym: BTC }) : undefined));
    rig.market.next(aQuote(2_000, 100));
    expect(rig.stateOf()).toBe('PENDING_CANCEL');
    rig.port.venueOrders.set('s-1', { ...rig.open, orderState: 'CANCELLED', updateAt: 2_200 });
    rig.refuse('s-2', 'cancelOrders', -1, 'the connection was lost before the venue answered');
    expect(rig.stateOf()).toBe('OPEN');
    await flushPromises();
    expect(rig.port.lookups).toEqual([`${BTC}|s-1`]);
    expect(rig.port.submitted.map((c) => c.intent.kind)).toEqual(['placeOrder', 'cancelOrders']);
    expect(rig.stateOf()).toBe('CANCELLED');
    expect(rig.seen).toEqual(['s-1 OPEN', 's-1 CANCELLED']);
    expect(rig.denials[0]?.reason).toMatch(/no answer from the venue to cancelOrders s-2.*looked up/);
  });

  it('leaves the order at the venue word, and reports no fault, when the look-up itself fails', async () => {
    const rig = aRestingBid((ctx, ts) => (ts === 2_000 ? ctx.order.cancel('s-1') : undefined));
    const faults: string[] = [];
    rig.kernel.faults.subscribe((fault) => faults.push(fault.where));
    rig.port.lookupOrder = () => Promise.reject(new Error('connection refused'));
    rig.market.next(aQuote(2_000, 100));
    rig.refuse('s-2', 'cancelOrder', -1, 'the connection was lost before the venue answered');
    await flushPromises();
    expect(rig.stateOf()).toBe('OPEN');
    expect(faults).toEqual([]);
  });

  it('does not look orders up after a definite refusal', async () => {
    const rig = aRestingBid((ctx, ts) => (ts === 2_000 ? ctx.order.cancel('s-1') : undefined));
    rig.market.next(aQuote(2_000, 100));
    rig.refuse('s-2', 'cancelOrder', 400001, 'bad parameters');
    await flushPromises();
    expect(rig.port.lookups).toEqual([]);
  });

  it('tells the strategy a command that did not take effect (code -2) is safe to send again, and looks nothing up', async () => {
    const rig = aRestingBid((ctx, ts) => (ts === 2_000 ? ctx.order.cancel('s-1') : undefined));
    rig.market.next(aQuote(2_000, 100));
    rig.refuse('s-2', 'cancelOrder', COMMAND_NOT_APPLIED, 'looked up 4 times: the order is still open');
    await flushPromises();
    expect(rig.port.lookups).toEqual([]);
    expect(rig.stateOf()).toBe('OPEN');
    expect(rig.denials.map((d) => d.check)).toEqual(['venue.-2']);
    expect(rig.denials[0]?.reason).toMatch(/cancelOrder s-2 did not take effect \(safe to send again\)/);
  });

  it('tells the strategy a command whose outcome is unknown (code -1) may have taken effect', () => {
    const rig = aRestingBid((ctx, ts) =>
      ts === 2_000
        ? ctx.order.algo({ sym: BTC, side: 'SELL', qty: 1, triggerPrice: 90, condition: 'LTE' })
        : undefined,
    );
    rig.market.next(aQuote(2_000, 100));
    rig.refuse('s-2', 'placeAlgoOrder', COMMAND_OUTCOME_UNKNOWN, 'its outcome is unknown');
    expect(rig.denials.map((d) => d.check)).toEqual(['venue.-1']);
    expect(rig.denials[0]?.reason).toMatch(
      /no answer from the venue to placeAlgoOrder s-2, which may have taken effect/,
    );
  });

  it('tells the strategy when the venue refuses a cancel of its algo order', () => {
    const rig = aRestingBid((ctx, ts) =>
      ts === 2_000
        ? ctx.order.algo({ sym: BTC, side: 'SELL', qty: 1, triggerPrice: 90, condition: 'LTE' })
        : ts === 2_100
          ? ctx.order.cancelAlgo('s-2')
          : undefined,
    );
    rig.market.next(aQuote(2_000, 100));
    rig.port.emit(anAlgoOrderUpdate(anAlgoOrder({ clientAlgoOrderId: 's-2', updateAt: 2_000 })));
    rig.market.next(aQuote(2_100, 100));
    rig.refuse('s-3', 'cancelAlgoOrder', 401018, 'no algo order s-2');
    expect(rig.denials.map((d) => `${d.ref} ${d.check}`)).toEqual(['s-3 venue.401018']);
  });
});

describe('in-flight requests: what is remembered', () => {
  it('remembers exactly the last `retain` requests sent, however many were refused or sent since', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5 }),
        fc.array(fc.oneof(fc.constant('send' as const), fc.integer({ min: 1, max: 40 })), { maxLength: 60 }),
        (retain, steps) => {
          const requests = new InFlightRequests(new OrderRegistry(), retain);
          const refused = new Set<number>();
          let sent = 0;
          for (const step of steps) {
            if (step === 'send') requests.sent(`r-${++sent}`, `s${sent % 3}`);
            else {
              const remembered = step <= sent && step > sent - retain && !refused.has(step);
              expect(requests.ownerOf(`r-${step}`)).toBe(remembered ? `s${step % 3}` : undefined);
              expect(requests.refused(`r-${step}`)?.owner).toBe(remembered ? `s${step % 3}` : undefined);
              // A reference not sent yet is refused as unknown: it is remembered once it is sent.
              if (step <= sent) refused.add(step);
            }
          }
        },
      ),
    );
  });
});

describe('InFlightRequests.sentOn: a request on one order', () => {
  it('marks the order, starts over once the venue answered, and puts back the latest venue word on a refusal', () => {
    const orders = new OrderRegistry();
    const requests = new InFlightRequests(orders);
    const open = anOrder({ clientOrderId: 's-1', orderId: 'o-1', updateAt: 1_000 });
    orders.own('s-1', 's');
    orders.applyVenue(open);
    requests.sentOn('s-2', 's', 's-1', 'PENDING_REPLACE', 2_000);
    expect(orders.byRef.get('s-1')).toMatchObject({ orderState: 'PENDING_REPLACE', updateAt: 2_000 });
    const amended = { ...open, limitPrice: D(101), action: 'AMEND_COMPLETED' as const, updateAt: 2_010 };
    orders.applyVenue(amended);
    requests.venueUpdated(amended);
    requests.sentOn('s-3', 's', 's-1', 'PENDING_CANCEL', 3_000);
    expect(orders.byRef.get('s-1')?.orderState).toBe('PENDING_CANCEL');
    // The answered request is no longer pending on the order: its refusal puts nothing back.
    expect(requests.refused('s-2')).toEqual({ owner: 's', targets: [orders.byRef.get('s-1')] });
    expect(orders.byRef.get('s-1')?.orderState).toBe('PENDING_CANCEL');
    expect(requests.refused('s-3')).toEqual({ owner: 's', targets: [amended] });
    expect(orders.byRef.get('s-1')).toBe(amended);
    expect(requests.ownerOf('s-3')).toBeUndefined();
  });
});

describe('InFlightRequests: what a request costs', () => {
  it('remembers a request without a map entry keyed by its reference, and still finds it when refused', () => {
    const orders = new OrderRegistry();
    const requests = new InFlightRequests(orders, 4);
    orders.own('s-1', 's');
    orders.applyVenue(anOrder({ clientOrderId: 's-1', orderId: 'o-1', updateAt: 1_000 }));
    const keys: unknown[] = [];
    const set = Map.prototype.set;
    Map.prototype.set = function (this: Map<unknown, unknown>, key: unknown, value: unknown) {
      keys.push(key);
      return set.call(this, key, value);
    };
    try {
      for (let n = 2; n <= 9; n++) requests.sentOn(`s-${n}`, 's', 's-1', 'PENDING_REPLACE', 1_000 + n);
    } finally {
      Map.prototype.set = set;
    }
    expect(keys.filter((key) => typeof key === 'string' && key !== 's-1' && key !== 'o-1')).toEqual([]);
    expect(requests.ownerOf('s-5')).toBeUndefined();
    expect(requests.ownerOf('s-6')).toBe('s');
    expect(requests.refused('s-9')?.owner).toBe('s');
    expect(requests.refused('s-9')).toBeUndefined();
    // A new order's reference (owned in the registry) is never a request's.
    expect(requests.refused('s-1')).toBeUndefined();
  });
});

describe("InFlightRequests: an order's record at its final state", () => {
  /** The keys `act` deletes from any map. */
  function deletedKeys(act: () => void): unknown[] {
    const keys: unknown[] = [];
    const remove = Map.prototype.delete;
    Map.prototype.delete = function (this: Map<unknown, unknown>, key: unknown) {
      keys.push(key);
      return remove.call(this, key);
    };
    try {
      act();
    } finally {
      Map.prototype.delete = remove;
    }
    return keys;
  }

  function aMarkedOrder() {
    const orders = new OrderRegistry();
    const requests = new InFlightRequests(orders);
    const open = anOrder({ clientOrderId: 's-1', orderId: 'o-1', updateAt: 1_000 });
    orders.own('s-1', 's');
    orders.applyVenue(open);
    requests.sentOn('s-2', 's', 's-1', 'PENDING_REPLACE', 2_000, undefined, D(101));
    return { orders, requests, open };
  }

  it("goes at the venue's own final word, and a late refusal still tells who sent the request", () => {
    const { orders, requests, open } = aMarkedOrder();
    const filled = { ...open, orderState: 'FILLED' as const, executedQty: open.orderQty, updateAt: 2_005 };
    orders.applyVenue(filled);
    expect(deletedKeys(() => requests.venueUpdated(filled))).toContain('s-1');
    expect(requests.claimedPrice(filled)).toBeUndefined();
    expect(requests.pendingOn('s-1')).toEqual([]);
    expect(requests.refused('s-2')).toEqual({ owner: 's', targets: [filled] });
    expect(orders.byRef.get('s-1')).toBe(filled);
  });

  it('stays at a final state Keel synthesized, which the venue may still undo', () => {
    const { orders, requests, open } = aMarkedOrder();
    const rejected = { ...open, orderState: 'REJECTED' as const, synthesized: true, updateAt: 2_005 };
    orders.applyVenue(rejected);
    expect(deletedKeys(() => requests.venueUpdated(rejected))).not.toContain('s-1');
  });
});
