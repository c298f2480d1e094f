import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  D,
  type Dec,
  type Intent,
  type Order,
  type PositionMode,
  type PositionSide,
  ZERO,
} from '../../../core/model/index.ts';
import { arbitraryReduceOnlyStep, type ReduceOnlyStep } from '../../kit/reduce-only-step-arbitraries.ts';
import {
  aLimit,
  aMark,
  aMarket,
  aQuote,
  aSim,
  aTrade,
  BTC,
  type SimUnderTest,
} from '../../kit/sim-builders.ts';

/** The leg an order or execution is on: the one position in NET mode. */
function legOf(mode: PositionMode, positionSide: string): string {
  return mode === 'NET' ? 'NONE' : positionSide;
}

/** Whether an order may only reduce: reduce-only, or in BOTH mode a leg's closing order. */
function onlyReduces(mode: PositionMode, o: Pick<Order, 'reduceOnly' | 'side' | 'positionSide'>): boolean {
  if (o.reduceOnly) return true;
  return mode === 'BOTH' && (o.side === 'SELL') === (o.positionSide === 'LONG');
}

function intentOf(
  mode: PositionMode,
  step: ReduceOnlyStep,
  ref: string,
  sent: readonly string[],
): Intent | undefined {
  const positionSide: PositionSide | undefined = mode === 'NET' ? 'NONE' : undefined;
  switch (step.kind) {
    case 'order': {
      const fields = { reduceOnly: step.reduceOnly, positionSide: positionSide ?? step.leg };
      if (step.market) return aMarket(ref, step.side, String(step.qty), fields);
      const price = step.side === 'SELL' ? 100 + step.away : 99.9 - step.away;
      return aLimit(ref, step.side, String(step.qty), price.toFixed(1), fields);
    }
    case 'modify': {
      const target = sent[step.pick % Math.max(1, sent.length)];
      return target === undefined
        ? undefined
        : { kind: 'modifyOrder', ref, target, sym: BTC, qty: D(String(step.qty)) };
    }
    case 'close':
      return { kind: 'closePosition', ref, sym: BTC, positionSide: positionSide ?? step.leg };
    case 'print':
      return undefined;
  }
}

/** Each leg's signed qty now. */
async function legQtys(t: SimUnderTest, mode: PositionMode): Promise<Map<string, Dec>> {
  const qtys = new Map<string, Dec>();
  for (const p of (await t.sim.snapshot()).positions) qtys.set(legOf(mode, p.positionSide), p.positionQty);
  return qtys;
}

/** What the open orders that only reduce each leg still have to fill, by leg and side. */
async function reducingRemainders(t: SimUnderTest, mode: PositionMode): Promise<Map<string, Dec>> {
  const left = new Map<string, Dec>();
  for (const o of (await t.sim.snapshot()).openOrders) {
    if (!onlyReduces(mode, o)) continue;
    const key = `${legOf(mode, o.positionSide)} ${o.side}`;
    left.set(key, (left.get(key) ?? ZERO).plus(o.orderQty.minus(o.executedQty)));
  }
  return left;
}

/** How much of a fill on `side` reduces a position of `qty`. */
function reducible(qty: Dec, side: string): Dec {
  if (side === 'BUY') return qty.isNegative() ? qty.abs() : ZERO;
  return qty.gt(0) ? qty : ZERO;
}

describe('reduce-only orders capped by their position (property)', () => {
  for (const mode of ['NET', 'BOTH'] as const satisfies readonly PositionMode[]) {
    it(`keeps a leg's reduce-only orders within what it has left once it shrinks, and no reduce-only fill grows or turns a position (${mode})`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(arbitraryReduceOnlyStep(), { minLength: 1, maxLength: 25 }),
          async (steps) => {
            const t = aSim({ positionMode: mode, startingBalances: { USDT: D('100000') } });
            t.sim.onMarket(aQuote(0, 99.9, 50, 100, 50));
            t.sim.onMarket(aMark(0, 100));
            const sent: string[] = [];
            // Legs that may hold more reduce-only orders than their position: a new or modified
            // order is trimmed to the position alone, the leg's orders together once it shrinks.
            const mayExceed = new Set<string>();
            let before = await legQtys(t, mode);
            for (const [i, step] of steps.entries()) {
              const ref = `o${i}`;
              const intent = intentOf(mode, step, ref, sent);
              if (intent !== undefined) t.send(intent);
              if (step.kind === 'order') sent.push(ref);
              if (step.kind === 'print')
                t.sim.onMarket(aTrade(i + 0.5, step.price, step.size, step.price > 100 ? 'BUY' : 'SELL'));
              t.sim.advanceTo(i + 1);
              const after = await legQtys(t, mode);
              for (const leg of new Set([...before.keys(), ...after.keys()])) {
                const was = before.get(leg) ?? ZERO;
                const now = after.get(leg) ?? ZERO;
                const shrank =
                  now.abs().lt(was.abs()) || (!was.isZero() && now.isNegative() !== was.isNegative());
                if (shrank) mayExceed.delete(leg);
              }
              if (step.kind === 'modify' || (step.kind === 'order' && !step.market)) {
                const o =
                  intent?.kind === 'placeOrder' || intent?.kind === 'modifyOrder' ? intent : undefined;
                const target = o?.kind === 'modifyOrder' ? o.target : ref;
                const order = (await t.sim.snapshot()).openOrders.find((x) => x.clientOrderId === target);
                if (order !== undefined && onlyReduces(mode, order)) {
                  const leg = legOf(mode, order.positionSide);
                  mayExceed.add(leg);
                  // Trimmed on arrival and on a modify: alone, it never exceeds its position.
                  const left = order.orderQty.minus(order.executedQty);
                  expect(left.lte(reducible(after.get(leg) ?? ZERO, order.side))).toBe(true);
                }
              }
              for (const [key, left] of await reducingRemainders(t, mode)) {
                const [leg = '', side = ''] = key.split(' ');
                if (mayExceed.has(leg)) continue;
                expect(left.lte(reducible(after.get(leg) ?? ZERO, side)), `${key} after step ${i}`).toBe(
                  true,
                );
              }
              before = after;
            }
            // Replayed fill by fill, each fill of an order that only reduces reduced its leg, at most to flat.
            const orders = new Map(t.of('order').map((e) => [e.order.clientOrderId, e.order]));
            const legs = new Map<string, Dec>();
            for (const { execution: x } of t.of('execution')) {
              const leg = legOf(mode, x.positionSide);
              const qty = legs.get(leg) ?? ZERO;
              const order = orders.get(x.clientOrderId);
              if (order !== undefined && onlyReduces(mode, order))
                expect(x.quantity.lte(reducible(qty, x.side)), `${x.clientOrderId} on ${qty}`).toBe(true);
              legs.set(leg, x.side === 'BUY' ? qty.plus(x.quantity) : qty.minus(x.quantity));
            }
          },
        ),
        {
          numRuns: 200,
          // The reviewer's case: long 2, a resting reduce-only SELL 2, a plain SELL 1 takes half.
          examples: [
            [
              [
                { kind: 'order', side: 'BUY', leg: 'LONG', market: true, reduceOnly: false, qty: 2, away: 1 },
                {
                  kind: 'order',
                  side: 'SELL',
                  leg: 'LONG',
                  market: false,
                  reduceOnly: true,
                  qty: 2,
                  away: 1,
                },
                {
                  kind: 'order',
                  side: 'SELL',
                  leg: 'LONG',
                  market: true,
                  reduceOnly: false,
                  qty: 1,
                  away: 1,
                },
                { kind: 'order', side: 'BUY', leg: 'LONG', market: true, reduceOnly: false, qty: 4, away: 1 },
                { kind: 'print', price: 103, size: 5 },
              ],
            ],
          ],
        },
      );
    });
  }
});
