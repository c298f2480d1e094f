import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { StrategyContext } from '../../../core/kernel/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import type { Intent } from '../../../core/model/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aQuote, BTC, ETH } from '../../kit/kernel-events.ts';

/** A strategy that places one BTC and one ETH bid on the first quote, then does what `act` says on the second. */
function scripted(act: (ctx: StrategyContext<unknown, unknown>) => Intent | readonly Intent[] | undefined) {
  return defineStrategy({
    name: 'scripted',
    params: z.object({}),
    onQuote: (ctx, quote) => {
      if (quote.ts === 1) {
        return [
          ctx.order.limit({ sym: BTC, side: 'BUY', qty: 0.1, price: 90 }),
          ctx.order.limit({ sym: ETH, side: 'BUY', qty: 0.1, price: 90 }),
        ];
      }
      if (quote.ts === 2) return act(ctx);
    },
  });
}

describe('kernel: several strategies, each owning only its own orders', () => {
  it('gives each strategy its own references and attributes orders to their owner', () => {
    const idle = scripted(() => undefined);
    const rig = aKernelRig([
      { id: 'alpha', strategy: idle },
      { id: 'beta', strategy: idle },
    ]);
    rig.market.next(aQuote(1, 100));
    expect(rig.venue.submitted.map((c) => `${c.strategyId}:${c.intent.ref}`)).toEqual([
      'alpha:alpha-1',
      'alpha:alpha-2',
      'beta:beta-1',
      'beta:beta-2',
    ]);
    expect(rig.kernel.state.openOrders('alpha').map((o) => o.clientOrderId)).toEqual(['alpha-1', 'alpha-2']);
    expect(rig.kernel.state.openOrders().map((o) => o.orderState)).toEqual(['OPEN', 'OPEN', 'OPEN', 'OPEN']);
  });

  it('denies a cancel of another strategy’s order and tells the strategy why', () => {
    const denied: string[] = [];
    const thief = defineStrategy({
      name: 'thief',
      params: z.object({}),
      onQuote: (ctx, quote) => (quote.ts === 2 ? ctx.order.cancel('alpha-1') : undefined),
      onDenied: (_ctx, denial) => {
        denied.push(`${denial.check}: ${denial.reason}`);
      },
    });
    const rig = aKernelRig([
      { id: 'alpha', strategy: scripted(() => undefined) },
      { id: 'beta', strategy: thief },
    ]);
    rig.market.next(aQuote(1, 100));
    rig.market.next(aQuote(2, 100));
    expect(denied).toEqual(['kernel.ownership: order alpha-1 belongs to strategy alpha, not beta']);
    expect(rig.venue.orders.get('alpha-1')?.orderState).toBe('OPEN');
    expect(rig.venue.submitted.some((c) => c.intent.kind === 'cancelOrder')).toBe(false);
  });

  it('denies a modify of another strategy’s order', () => {
    const rig = aKernelRig([
      { id: 'alpha', strategy: scripted(() => undefined) },
      { id: 'beta', strategy: scripted((ctx) => ctx.order.modify('alpha-2', { price: 95 })) },
    ]);
    rig.market.next(aQuote(1, 100));
    rig.market.next(aQuote(2, 100));
    expect(rig.denials.map((d) => [d.strategyId, d.check, d.intentKind])).toEqual([
      ['beta', 'kernel.ownership', 'modifyOrder'],
    ]);
  });

  it('lets a strategy cancel and modify its own orders', () => {
    const rig = aKernelRig([
      { id: 'alpha', strategy: scripted(() => undefined) },
      {
        id: 'beta',
        strategy: scripted((ctx) => [ctx.order.cancel('beta-1'), ctx.order.modify('beta-2', { price: 95 })]),
      },
    ]);
    rig.market.next(aQuote(1, 100));
    rig.market.next(aQuote(2, 100));
    expect(rig.denials).toEqual([]);
    expect(rig.venue.orders.get('beta-1')?.orderState).toBe('CANCELLED');
    expect(rig.venue.orders.get('beta-2')?.limitPrice.toFixed()).toBe('95');
    expect(rig.kernel.state.orderByRef('beta-2')?.limitPrice.toFixed()).toBe('95');
  });

  it('"cancel all mine" cancels only the strategy’s own orders, optionally on one sym', () => {
    const rig = aKernelRig([
      { id: 'alpha', strategy: scripted(() => undefined) },
      { id: 'beta', strategy: scripted((ctx) => ctx.order.cancelMany({ sym: BTC })) },
      { id: 'gamma', strategy: scripted((ctx) => ctx.order.cancelMany()) },
    ]);
    rig.market.next(aQuote(1, 100));
    rig.market.next(aQuote(2, 100));
    const states = [...rig.venue.orders.values()].map((o) => `${o.clientOrderId} ${o.orderState}`);
    expect(states).toEqual([
      'alpha-1 OPEN',
      'alpha-2 OPEN',
      'beta-1 CANCELLED',
      'beta-2 OPEN',
      'gamma-1 CANCELLED',
      'gamma-2 CANCELLED',
    ]);
    const cancelAll = rig.venue.submitted.find(
      (c) => c.strategyId === 'gamma' && c.intent.kind === 'cancelOrders',
    );
    expect(cancelAll?.intent).toMatchObject({ targets: ['gamma-1', 'gamma-2'] });
  });

  it('sees the whole state: another strategy’s orders are visible but not "open orders" of its own', () => {
    const views: string[] = [];
    const observer = defineStrategy({
      name: 'observer',
      params: z.object({}),
      onQuote: (ctx, quote) => {
        if (quote.ts === 2)
          views.push(`${ctx.openOrders().length} mine, ${ctx.allOpenOrders(BTC).length} on BTC`);
      },
    });
    const rig = aKernelRig([
      { id: 'alpha', strategy: scripted(() => undefined) },
      { id: 'obs', strategy: observer },
    ]);
    rig.market.next(aQuote(1, 100));
    rig.market.next(aQuote(2, 100));
    expect(views).toEqual(['0 mine, 1 on BTC']);
  });

  it('lists open orders per sym from the sym index: its own with openOrders, everyone’s with allOpenOrders', () => {
    const views: string[] = [];
    const refsOf = (orders: readonly { clientOrderId: string }[]): string =>
      orders.map((o) => o.clientOrderId).join(',') || '-';
    const rig = aKernelRig([
      {
        id: 'alpha',
        strategy: scripted((ctx) => {
          views.push(`alpha BTC ${refsOf(ctx.openOrders(BTC))} ETH ${refsOf(ctx.openOrders(ETH))}`);
          return undefined;
        }),
      },
      {
        id: 'beta',
        strategy: scripted((ctx) => {
          views.push(
            `beta BTC ${refsOf(ctx.openOrders(BTC))} all BTC ${refsOf(ctx.allOpenOrders(BTC))} all SOL ${refsOf(ctx.allOpenOrders('OKX_SPOT_SOL_USDT'))}`,
          );
          return ctx.order.cancel('beta-1');
        }),
      },
    ]);
    rig.market.next(aQuote(1, 100));
    rig.market.next(aQuote(2, 100));
    expect(views).toEqual([
      'alpha BTC alpha-1 ETH alpha-2',
      'beta BTC beta-1 all BTC alpha-1,beta-1 all SOL -',
    ]);
    expect(rig.kernel.state.openOrders().map((o) => o.clientOrderId)).toEqual([
      'alpha-1',
      'alpha-2',
      'beta-2',
    ]);
  });

  it('denies a reference used twice and one longer than 40 characters', () => {
    const rig = aKernelRig([
      {
        id: 'alpha',
        strategy: scripted((ctx) => [
          ctx.order.limit({ sym: BTC, side: 'BUY', qty: 0.1, price: 90, ref: 'mine-1' }),
          ctx.order.limit({ sym: BTC, side: 'BUY', qty: 0.1, price: 90, ref: 'mine-1' }),
          ctx.order.limit({ sym: BTC, side: 'BUY', qty: 0.1, price: 90, ref: 'x'.repeat(41) }),
        ]),
      },
    ]);
    rig.market.next(aQuote(1, 100));
    rig.market.next(aQuote(2, 100));
    expect(rig.denials.map((d) => d.reason)).toEqual([
      'reference mine-1 was already used in this run',
      `reference "${'x'.repeat(41)}" must be 1 to 40 characters`,
    ]);
    expect(rig.venue.orders.has('mine-1')).toBe(true);
  });

  it('denies a generated intent submitted twice, and a custom reference shaped like another strategy’s', () => {
    const rig = aKernelRig([
      { id: 'alpha', strategy: scripted(() => undefined) },
      {
        id: 'beta',
        strategy: scripted((ctx) => {
          const once = ctx.order.limit({ sym: BTC, side: 'BUY', qty: 0.1, price: 90 });
          return [
            once,
            once,
            ctx.order.limit({ sym: BTC, side: 'BUY', qty: 0.1, price: 90, ref: 'alpha-9' }),
          ];
        }),
      },
    ]);
    rig.market.next(aQuote(1, 100));
    rig.market.next(aQuote(2, 100));
    expect(rig.denials.map((d) => d.reason)).toEqual([
      'reference beta-3 was already used in this run',
      "reference alpha-9 has the form of strategy alpha's generated references",
    ]);
  });

  it('puts the run id into generated references so a restart does not reuse them', () => {
    const rig = aKernelRig([{ id: 'alpha', strategy: scripted(() => undefined) }], { runId: 'r7' });
    rig.market.next(aQuote(1, 100));
    expect(rig.venue.submitted.map((c) => c.intent.ref)).toEqual(['alpha-r7-1', 'alpha-r7-2']);
  });
});
