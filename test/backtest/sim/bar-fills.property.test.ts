import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BarEvent } from '../../../core/model/index.ts';
import { D, ZERO } from '../../../core/model/index.ts';
import { arbitraryBarSession } from '../../kit/sim-arbitraries.ts';
import { aSim } from '../../kit/sim-builders.ts';

describe('sim venue: bar fill model (property)', () => {
  it('fills only inside the range of the bar being replayed, market orders at its open, with the identity intact', async () => {
    await fc.assert(
      fc.asyncProperty(arbitraryBarSession(), async (steps) => {
        const t = aSim({ fillModel: 'bar', startingBalances: { USDT: D('1000000') } });
        /** The bar whose replay emitted each fill, by fill index. */
        const barOfFill: BarEvent[] = [];
        for (const step of steps) {
          if ('event' in step) {
            t.sim.onMarket(step.event);
            const emitted = t.of('execution').length;
            while (barOfFill.length < emitted) barOfFill.push(step.event as BarEvent);
          } else {
            t.send(step.intent);
          }
        }
        const fills = t.of('execution').map((e) => e.execution);
        expect(barOfFill).toHaveLength(fills.length);
        fills.forEach((fill, i) => {
          const bar = barOfFill[i] as BarEvent;
          expect(fill.timestamp, `${fill.clientOrderId} stamped outside its bar`).toBeGreaterThanOrEqual(
            bar.openTime,
          );
          expect(fill.timestamp, `${fill.clientOrderId} stamped outside its bar`).toBeLessThanOrEqual(bar.ts);
          const price = fill.price.toNumber();
          expect(
            price >= bar.low - 1e-9 && price <= bar.high + 1e-9,
            `${fill.clientOrderId} at ${price} outside [${bar.low}, ${bar.high}]`,
          ).toBe(true);
          if (
            fill.clientOrderId.startsWith('o') &&
            !fill.clientOrderId.includes('-') &&
            fill.execType === 'TAKER'
          ) {
            expect(price).toBe(bar.open);
          }
        });
        const snapshot = await t.sim.snapshot();
        const realized = fills.reduce((sum, f) => sum.plus(f.rpnl), ZERO);
        const fees = fills.reduce((sum, f) => sum.plus(f.fee).minus(f.rebate), ZERO);
        const unrealized = snapshot.positions.reduce((sum, p) => sum.plus(p.unrealizedPNL), ZERO);
        const cash = snapshot.assets.find((a) => a.coin === 'USDT')?.balance ?? ZERO;
        const expected = D('1000000').plus(realized).plus(unrealized).minus(fees);
        expect(cash.plus(unrealized).minus(expected).abs().lte('1e-20')).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
