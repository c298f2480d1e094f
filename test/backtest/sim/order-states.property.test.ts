import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FillModelName } from '../../../backtest/sim/index.ts';
import type { Order, OrderState, PlaceOrderIntent, UserEvent } from '../../../core/model/index.ts';
import { arbitraryBarSession, arbitrarySession, type SimStep } from '../../kit/sim-arbitraries.ts';
import { aSim } from '../../kit/sim-builders.ts';

/** Progress of a venue state: acknowledged, resting, filling, final. */
const RANK: Partial<Record<OrderState, number>> = {
  NEW: 0,
  OPEN: 1,
  PARTIALLY_FILLED: 2,
  FILLED: 3,
  CANCELLED: 3,
  REJECTED: 3,
};

interface Placed {
  readonly intent: PlaceOrderIntent;
  /** A quote, trade or bar came before it: it meets a price on arrival (it does not wait). */
  readonly priced: boolean;
}

function replay(steps: readonly SimStep[], fillModel: FillModelName) {
  const t = aSim({ fillModel });
  const placed = new Map<string, Placed>();
  let priced = false;
  for (const step of steps) {
    if ('event' in step) {
      const kind = step.event.kind;
      if (kind === 'quote' || kind === 'trade' || kind === 'bar') priced = true;
      t.sim.onMarket(step.event);
    } else {
      if (step.intent.kind === 'placeOrder' && !placed.has(step.intent.ref))
        placed.set(step.intent.ref, { intent: step.intent, priced });
      t.send(step.intent);
      t.sim.advanceTo(t.sim.now());
    }
  }
  return { events: t.events, placed };
}

/** Every way an order's Orders updates could break the venue's NEW -> OPEN rule; empty when none. */
function stateViolations(events: readonly UserEvent[], placed: ReadonlyMap<string, Placed>): string[] {
  const problems: string[] = [];
  const last = new Map<string, Order>();
  for (const event of events) {
    if (event.kind === 'execution') {
      const { clientOrderId: ref, execType } = event.execution;
      const before = last.get(ref)?.orderState;
      // a maker fill means the order rested: it was reported OPEN (or PARTIALLY_FILLED) first
      if (execType === 'MAKER' && before !== 'OPEN' && before !== 'PARTIALLY_FILLED')
        problems.push(`${ref}: maker fill while ${before}`);
      continue;
    }
    if (event.kind !== 'order') continue;
    const order = event.order;
    const ref = order.clientOrderId;
    const previous = last.get(ref);
    const state = order.orderState;
    if (previous === undefined && state !== 'NEW' && state !== 'REJECTED')
      problems.push(`${ref}: first update ${state}`);
    if (previous !== undefined && (RANK[state] ?? -1) < (RANK[previous.orderState] ?? -1))
      problems.push(`${ref}: ${previous.orderState} -> ${state}`);
    if (state === 'OPEN' && !order.executedQty.isZero()) problems.push(`${ref}: OPEN with fills`);
    const immediate =
      order.timeInForce === 'IOC' || order.timeInForce === 'FOK' || order.timeInForce === 'FAK';
    if (state === 'OPEN' && (order.orderType === 'MARKET' || immediate))
      problems.push(`${ref}: ${order.orderType} ${order.timeInForce} shown OPEN`);
    last.set(ref, order);
  }
  // a limit that could rest on arrival and is still live with nothing filled rests OPEN
  for (const [ref, { intent, priced }] of placed) {
    const order = last.get(ref);
    const resting =
      intent.orderType === 'LIMIT' &&
      intent.timeInForce !== 'IOC' &&
      intent.timeInForce !== 'FOK' &&
      priced &&
      order !== undefined &&
      (RANK[order.orderState] ?? 3) < 3 &&
      order.executedQty.isZero();
    if (resting && order.orderState !== 'OPEN') problems.push(`${ref}: resting but ${order.orderState}`);
  }
  return problems;
}

describe('sim venue: order states follow the live venue (property)', () => {
  for (const model of ['touch', 'through', 'queue'] as const) {
    it(`reports NEW, then OPEN only for an order that rests unfilled, never going back (${model})`, () => {
      fc.assert(
        fc.property(arbitrarySession(), (steps) => {
          const { events, placed } = replay(steps, model);
          expect(stateViolations(events, placed)).toEqual([]);
        }),
        { numRuns: 150 },
      );
    });
  }

  it('reports NEW, then OPEN only for an order that rests unfilled, never going back (bar)', () => {
    fc.assert(
      fc.property(arbitraryBarSession(), (steps) => {
        const { events, placed } = replay(steps, 'bar');
        expect(stateViolations(events, placed)).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });
});
