import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { IntentDenied, IntentGate, StrategyContext, TrailingStop } from '../../../core/kernel/index.ts';
import { defineStrategy } from '../../../core/kernel/index.ts';
import type { Intent } from '../../../core/model/index.ts';
import { RiskGate } from '../../../core/risk/index.ts';
import { aKernelRig } from '../../kit/kernel-builders.ts';
import { aTrade, BTC, ETH } from '../../kit/kernel-events.ts';

type Ctx = StrategyContext<unknown, unknown>;

/** A RiskGate that also denies every intent of one kind (a strategy limit a custom gate may set). */
function gateDenying(kind: Intent['kind']): IntentGate {
  const real = new RiskGate();
  return {
    evaluate: (intent, view) =>
      intent.intent.kind === kind
        ? { kind: 'denied', check: 'test.denied', reason: `no ${kind} in this test` }
        : real.evaluate(intent, view),
  };
}

/**
 * A strategy that buys 1 BTC and places a reduce-only trailing stop at start (plus `extra`), and at
 * the trade at ts 2 emits what `act` returns.
 */
function protector(name: string, act?: (ctx: Ctx) => Intent, extra?: (ctx: Ctx) => Intent) {
  const updates: TrailingStop[] = [];
  const denials: IntentDenied[] = [];
  const strategy = defineStrategy({
    name,
    params: z.object({}),
    onStart: (ctx) => [
      ctx.order.market({ sym: BTC, side: 'BUY', qty: 1 }),
      ctx.order.trailingStop({ sym: BTC, side: 'SELL', qty: 1, offset: { ticks: 5 } }),
      ...(extra === undefined ? [] : [extra(ctx)]),
    ],
    onTrade: (ctx, trade) => (trade.ts === 2 && act !== undefined ? act(ctx) : undefined),
    onTrailingStop: (_ctx, u) => {
      updates.push(u);
    },
    onDenied: (_ctx, d) => {
      denials.push(d);
    },
  });
  return { strategy, updates, denials };
}

const statuses = (updates: readonly TrailingStop[]) => updates.map((u) => `${u.updateAt}:${u.status}`);
const checks = (denials: readonly IntentDenied[]) => denials.map((d) => `${d.source}:${d.check}`);

describe('kernel: a denied intent cancels no emulated trailing stop', () => {
  it("a close the risk gate denies leaves every strategy's reduce-only stop open, the closer's own too", () => {
    // In NET mode a close naming the LONG leg is denied by the positionSide check.
    const closer = protector('closer', (ctx) => ctx.order.closePosition(BTC, 'LONG'));
    const other = protector('other');
    const rig = aKernelRig(
      [
        { id: 'a', strategy: closer.strategy },
        { id: 'b', strategy: other.strategy },
      ],
      { gate: new RiskGate() },
    );
    rig.market.next(aTrade(1, 100));
    rig.market.next(aTrade(2, 100));
    expect(checks(closer.denials)).toEqual(['risk:positionSide']);
    // The close never reached the venue: both positions keep their stops.
    expect(statuses(other.updates)).toEqual(['0:PENDING', '1:ACTIVE']);
    expect(statuses(closer.updates)).toEqual(['0:PENDING', '1:ACTIVE']);
    // And they still protect: the price falls through them.
    rig.market.next(aTrade(3, 90));
    expect(statuses(other.updates)).toEqual(['0:PENDING', '1:ACTIVE', '3:TRIGGERED']);
    expect(statuses(closer.updates)).toEqual(['0:PENDING', '1:ACTIVE', '3:TRIGGERED']);
  });

  it('a close of a flat sym, denied, leaves the stop another strategy placed ahead of its entry', () => {
    const closerDenials: IntentDenied[] = [];
    const closer = defineStrategy({
      name: 'closer',
      params: z.object({}),
      onTrade: (ctx, trade) => (trade.ts === 2 ? ctx.order.closePosition(ETH) : undefined),
      onDenied: (_ctx, d) => {
        closerDenials.push(d);
      },
    });
    const updates: TrailingStop[] = [];
    const waiting = defineStrategy({
      name: 'waiting',
      params: z.object({}),
      // The entry rests; the stop waits for the position it will protect.
      onStart: (ctx) => [
        ctx.order.limit({ sym: ETH, side: 'BUY', qty: 1, price: 50 }),
        ctx.order.trailingStop({ sym: ETH, side: 'SELL', qty: 1, offset: { ticks: 5 } }),
      ],
      onTrailingStop: (_ctx, u) => {
        updates.push(u);
      },
    });
    const rig = aKernelRig(
      [
        { id: 'a', strategy: closer },
        { id: 'b', strategy: waiting },
      ],
      // The real gate passes this close now: the resting entry could open ETH before it arrives.
      { gate: gateDenying('closePosition') },
    );
    rig.market.next(aTrade(1, 100));
    rig.market.next(aTrade(2, 100));
    expect(closerDenials.map((d) => d.source)).toEqual(['risk']);
    expect(statuses(updates)).toEqual(['0:PENDING']);
  });

  it('a close of several syms a gate denies leaves the stops open', () => {
    const closer = protector('closer', (ctx) => ctx.order.closePositions([BTC]));
    const other = protector('other');
    const rig = aKernelRig(
      [
        { id: 'a', strategy: closer.strategy },
        { id: 'b', strategy: other.strategy },
      ],
      { gate: gateDenying('closePositions') },
    );
    rig.market.next(aTrade(1, 100));
    rig.market.next(aTrade(2, 100));
    expect(checks(closer.denials)).toEqual(['risk:test.denied']);
    expect(statuses(other.updates)).toEqual(['0:PENDING', '1:ACTIVE']);
    expect(statuses(closer.updates)).toEqual(['0:PENDING', '1:ACTIVE']);
  });

  it('a close that passes still cancels every owner’s reduce-only stops on the sym, and goes to the venue', () => {
    const closer = protector('closer', (ctx) => ctx.order.closePosition(BTC));
    const other = protector('other');
    const rig = aKernelRig(
      [
        { id: 'a', strategy: closer.strategy },
        { id: 'b', strategy: other.strategy },
      ],
      { gate: new RiskGate() },
    );
    rig.market.next(aTrade(1, 100));
    rig.market.next(aTrade(2, 100));
    expect(closer.denials).toEqual([]);
    expect(statuses(other.updates)).toEqual(['0:PENDING', '1:ACTIVE', '2:CANCELLED']);
    expect(statuses(closer.updates)).toEqual(['0:PENDING', '1:ACTIVE', '2:CANCELLED']);
    expect(rig.venue.submitted.map((s) => (s.intent as Intent).kind)).toContain('closePosition');
  });

  it('cancelMany() of an own stop and another strategy’s order, denied for ownership, leaves the stop open', () => {
    const owner = protector('owner', undefined, (ctx) =>
      ctx.order.limit({ sym: BTC, side: 'BUY', qty: 1, price: 50 }),
    );
    // b-1 is owner's market entry, b-2 its stop, b-3 its resting limit.
    const canceller = protector('canceller', (ctx) => ctx.order.cancelMany({ targets: ['a-2', 'b-3'] }));
    const rig = aKernelRig([
      { id: 'a', strategy: canceller.strategy },
      { id: 'b', strategy: owner.strategy },
    ]);
    rig.market.next(aTrade(1, 100));
    rig.market.next(aTrade(2, 100));
    expect(checks(canceller.denials)).toEqual(['kernel:kernel.ownership']);
    expect(statuses(canceller.updates)).toEqual(['0:PENDING', '1:ACTIVE']);
  });

  it('cancelMany() without targets that the gate denies leaves the strategy’s stops open', () => {
    const t = protector(
      'canceller',
      (ctx) => ctx.order.cancelMany({ sym: BTC }),
      (ctx) => ctx.order.limit({ sym: BTC, side: 'BUY', qty: 1, price: 50 }),
    );
    const rig = aKernelRig([{ id: 's', strategy: t.strategy }], { gate: gateDenying('cancelOrders') });
    rig.market.next(aTrade(1, 100));
    rig.market.next(aTrade(2, 100));
    expect(checks(t.denials)).toEqual(['risk:test.denied']);
    expect(statuses(t.updates)).toEqual(['0:PENDING', '1:ACTIVE']);
  });

  it('cancelMany() without targets cancels the stops when no venue order is left to cancel (nothing to deny)', () => {
    const t = protector('canceller', (ctx) => ctx.order.cancelMany({ sym: BTC }));
    const rig = aKernelRig([{ id: 's', strategy: t.strategy }], { gate: gateDenying('cancelOrders') });
    rig.market.next(aTrade(1, 100));
    rig.market.next(aTrade(2, 100));
    expect(t.denials).toEqual([]);
    expect(statuses(t.updates)).toEqual(['0:PENDING', '1:ACTIVE', '2:CANCELLED']);
  });
});
