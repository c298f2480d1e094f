import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { IntentDenied, StrategyContext } from '../../../core/kernel/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import type { Dec } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { anAccountUpdate, aPositionUpdate, aQuote, BTC, ETH } from '../../kit/kernel-events.ts';

const bigOrder = (ctx: StrategyContext<unknown, unknown>) =>
  ctx.order.limit({ sym: BTC, side: 'BUY', qty: 10, price: 100 });

describe('kernel: denials are events, never exceptions', () => {
  it('delivers a risk denial to onDenied with the check and reason, and nothing reaches the port', () => {
    const denials: IntentDenied[] = [];
    const strategy = defineStrategy({
      name: 'too-big',
      params: z.object({}),
      onQuote: (ctx, quote) => (quote.ts === 1 ? bigOrder(ctx) : undefined),
      onDenied: (_ctx, denial) => {
        denials.push(denial);
      },
    });
    const gate = new RiskGate({ limits: { maxNotionalPerOrder: '500' } });
    const rig = aKernelRig([{ id: 's', strategy }], { gate });
    expect(() => rig.market.next(aQuote(1, 100))).not.toThrow();
    expect(rig.venue.submitted).toEqual([]);
    expect(denials).toHaveLength(1);
    expect(denials[0]).toMatchObject({ kind: 'denied', strategyId: 's', ref: 's-1', source: 'risk', ts: 1 });
    // A risk check is named by itself, unprefixed (see IntentDenied.check).
    expect(denials[0]?.check).toBe('maxNotional');
    expect(denials[0]?.reason).toMatch(/500/);
  });

  it('delivers the same denial on ctx.denials() for reactive strategies', () => {
    const seen: string[] = [];
    const strategy = defineStrategy({
      name: 'too-big-rx',
      params: z.object({}),
      setup: (ctx) => {
        ctx.denials().subscribe((d) => seen.push(`${d.ref} ${d.source}`));
        return undefined;
      },
      onQuote: (ctx, quote) => (quote.ts === 1 ? bigOrder(ctx) : undefined),
    });
    const rig = aKernelRig([{ id: 's', strategy }], {
      gate: new RiskGate({ limits: { maxNotionalPerOrder: '500' } }),
    });
    rig.market.next(aQuote(1, 100));
    expect(seen).toEqual(['s-1 risk']);
  });

  it('delivers a denial after the hook that caused it returns, so hooks never run inside each other', () => {
    const trace: string[] = [];
    const strategy = defineStrategy({
      name: 'tracer',
      params: z.object({}),
      onQuote: (ctx, quote) => {
        trace.push('onQuote start');
        if (quote.ts === 1) ctx.submit(bigOrder(ctx));
        trace.push('onQuote end');
      },
      onDenied: () => {
        trace.push('onDenied');
      },
    });
    const rig = aKernelRig([{ id: 's', strategy }], {
      gate: new RiskGate({ limits: { maxNotionalPerOrder: '500' } }),
    });
    rig.market.next(aQuote(1, 100));
    expect(trace).toEqual(['onQuote start', 'onQuote end', 'onDenied']);
  });

  it('denies everything but cancels while the gate is halted (kill switch), and the strategy learns why', () => {
    const gate = new RiskGate();
    const strategy = defineStrategy({
      name: 'quoter',
      params: z.object({}),
      onQuote: (ctx, quote) =>
        quote.ts === 1
          ? ctx.order.limit({ sym: BTC, side: 'BUY', qty: 0.1, price: 90 })
          : [ctx.order.limit({ sym: BTC, side: 'BUY', qty: 0.1, price: 91 }), ctx.order.cancel('s-1')],
    });
    const rig = aKernelRig([{ id: 's', strategy }], { gate });
    rig.market.next(aQuote(1, 100));
    gate.halt('manual stop');
    rig.market.next(aQuote(2, 100));
    expect(rig.denials.map((d) => [d.ref, d.check])).toEqual([['s-2', 'tradingState']]);
    expect(rig.denials[0]?.reason).toMatch(/manual stop/);
    expect(rig.venue.orders.get('s-1')?.orderState).toBe('CANCELLED');
  });

  it('shows equity to the kill switch on account updates, so a loss trips it before the next intent', () => {
    const gate = new RiskGate({ killSwitch: { dailyLossLimit: '100' } });
    const rig = aKernelRig([], { gate, start: Date.parse('2026-01-05T10:00:00Z') });
    const t0 = Date.parse('2026-01-05T10:00:01Z');
    rig.kernel.push(anAccountUpdate(t0, '1000'));
    expect(gate.status().state).toBe('ACTIVE');
    rig.kernel.push(anAccountUpdate(t0 + 1_000, '850'));
    expect(gate.status().state).toBe('HALTED');
  });

  it('hands equity to a gate after account updates unless the gate says it ignores equity', () => {
    const observed: string[] = [];
    const gateThat = (watches: boolean | undefined) => ({
      evaluate: (intent: Parameters<RiskGate['evaluate']>[0], view: Parameters<RiskGate['evaluate']>[1]) =>
        new RiskGate().evaluate(intent, view),
      observeEquity: (_now: number, equity: Dec) => observed.push(`${watches}: ${equity.toFixed()}`),
      ...(watches === undefined ? {} : { watchesEquity: () => watches }),
    });
    for (const watches of [true, false, undefined]) {
      const rig = aKernelRig([], { gate: gateThat(watches) });
      rig.kernel.push(anAccountUpdate(1, '1000'));
    }
    expect(observed).toEqual(['true: 1000', 'undefined: 1000']);
    expect(new RiskGate().watchesEquity()).toBe(false);
    expect(new RiskGate({ killSwitch: { maxDrawdown: 0.1 } }).watchesEquity()).toBe(true);
  });

  it('turns a venue refusal of a non-order command into a denial of the owning strategy', () => {
    const strategy = defineStrategy({
      name: 'borrower',
      params: z.object({}),
      onQuote: (ctx, quote) =>
        quote.ts === 1 ? ctx.order.borrow({ exchange: 'BINANCE', coin: 'USDT', amount: '100' }) : undefined,
    });
    const rig = aKernelRig([{ id: 'b', strategy }]);
    rig.market.next(aQuote(1, 100));
    expect(rig.venue.submitted.map((c) => c.intent.kind)).toEqual(['borrow']);
    rig.kernel.push({
      kind: 'commandRejected',
      ts: 2,
      recvTs: 2,
      ref: 'b-1',
      intentKind: 'borrow',
      code: 401023,
      message: 'insufficient margin',
    });
    expect(rig.denials.map((d) => [d.strategyId, d.source, d.check, d.sym])).toEqual([
      ['b', 'venue', 'venue.401023', undefined],
    ]);
  });

  it('names the sym of a refused command, which the venue only echoes by reference', () => {
    const seen: (string | undefined)[] = [];
    const strategy = defineStrategy({
      name: 'closer',
      params: z.object({}),
      onQuote: (ctx, quote) => {
        if (quote.ts === 1) return ctx.order.closePosition(BTC);
        if (quote.ts === 2) return ctx.order.closePositions([BTC, ETH]);
        return undefined;
      },
      onDenied: (_ctx, denial) => {
        seen.push(denial.sym);
      },
    });
    const rig = aKernelRig([{ id: 'c', strategy }]);
    rig.kernel.push(aPositionUpdate(0, '1'));
    rig.market.next(aQuote(1, 100));
    rig.market.next(aQuote(2, 100));
    expect(rig.venue.submitted.map((c) => c.intent.kind)).toEqual(['closePosition', 'closePositions']);
    for (const [ref, intentKind] of [
      ['c-1', 'closePosition'],
      ['c-2', 'closePositions'],
    ] as const)
      rig.kernel.push({
        kind: 'commandRejected',
        ts: 3,
        recvTs: 3,
        ref,
        intentKind,
        code: 401097,
        message: 'no position',
      });
    expect(rig.denials.map((d) => [d.ref, d.sym])).toEqual([
      ['c-1', BTC],
      ['c-2', `${BTC} ${ETH}`],
    ]);
    expect(seen).toEqual([BTC, `${BTC} ${ETH}`]);
  });

  it('halts a strategy whose hook throws, reports the fault, and keeps the others running', () => {
    const broken = defineStrategy({
      name: 'broken',
      params: z.object({}),
      onQuote: () => {
        throw new Error('boom');
      },
    });
    let calls = 0;
    const healthy = defineStrategy({
      name: 'healthy',
      params: z.object({}),
      onQuote: () => {
        calls++;
      },
    });
    const rig = aKernelRig([
      { id: 'x', strategy: broken },
      { id: 'y', strategy: healthy },
    ]);
    rig.market.next(aQuote(1, 100));
    rig.market.next(aQuote(2, 100));
    expect(rig.faults).toEqual(['x:onQuote:Error: boom']);
    expect(calls).toBe(2);
  });
});
