import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EquitySnapshot } from '../../../backtest/sim/equity-estimate.ts';
import type { Dec } from '../../../core/model/index.ts';
import { D } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { arbitraryBarSession, arbitrarySession } from '../../kit/sim-arbitraries.ts';
import { aMark, aMarket, aQuote, aSim, BTC } from '../../kit/sim-builders.ts';

const ETH = 'BINANCE_PERP_ETH_USDT';

describe('sim venue: equity estimate and deferred snapshot', () => {
  it('a snapshot gives, whenever it is read, exactly the equity of the moment it was taken; the estimate is that on numbers', () => {
    fc.assert(
      fc.property(
        fc.oneof(arbitrarySession(), arbitraryBarSession()),
        fc.constantFrom('1000', '1000000'),
        (steps, balance) => {
          const t = aSim({ startingBalances: { USDT: D(balance) } });
          const taken: { snapshot: EquitySnapshot; equity: Dec; estimate: number }[] = [];
          for (const step of steps) {
            if ('event' in step) t.sim.onMarket(step.event);
            else {
              t.send(step.intent);
              t.sim.advanceTo(t.sim.now());
            }
            taken.push({
              snapshot: t.sim.equitySnapshot(),
              equity: t.sim.equity(),
              estimate: t.sim.equityEstimate(),
            });
          }
          // Read after the session moved on: each one still equals its own moment, digit for digit.
          for (const { snapshot, equity, estimate } of taken) {
            expect(snapshot.exact().toFixed()).toBe(equity.toFixed());
            expect(Math.abs(estimate - equity.toNumber())).toBeLessThanOrEqual(
              1e-6 * Math.max(1, Math.abs(estimate)),
            );
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('a snapshot of positions on two perpetuals gives exactly the equity of the moment it was taken', () => {
    const step = fc.record({
      sym: fc.constantFrom(BTC, ETH),
      mark: fc.integer({ min: 900, max: 1100 }),
      order: fc.constantFrom('none', 'BUY', 'SELL'),
    });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 15 }), (steps) => {
        const t = aSim({ instruments: [anInstrument(BTC), anInstrument(ETH)] });
        for (const sym of [BTC, ETH]) {
          t.sim.onMarket(aQuote(0, 99.9, 1000, 100, 1000, sym));
          t.sim.onMarket(aMark(0, 100, undefined, sym));
        }
        const taken: { snapshot: EquitySnapshot; equity: Dec }[] = [];
        steps.forEach(({ sym, mark, order }, i) => {
          if (order !== 'none') t.send(aMarket(`o${i}`, order, '1', { sym }));
          t.sim.onMarket(aMark(10 * (i + 1), mark / 10, undefined, sym));
          taken.push({ snapshot: t.sim.equitySnapshot(), equity: t.sim.equity() });
        });
        for (const { snapshot, equity } of taken) expect(snapshot.exact().toFixed()).toBe(equity.toFixed());
      }),
    );
  });

  it('the number floor of the available margin never exceeds the exact available margin', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(arbitrarySession(), arbitraryBarSession()),
        fc.constantFrom('100', '1000', '1000000'),
        async (steps, balance) => {
          const t = aSim({ startingBalances: { USDT: D(balance) } });
          for (const step of steps) {
            if ('event' in step) t.sim.onMarket(step.event);
            else {
              t.send(step.intent);
              t.sim.advanceTo(t.sim.now());
            }
            const floor = t.sim.availableMarginFloor();
            const exact = (await t.sim.snapshot()).account?.availableMargin.toNumber() ?? Number.NaN;
            if (!Number.isNaN(floor))
              expect(floor).toBeLessThanOrEqual(exact + 1e-9 * Math.max(1, Math.abs(exact)));
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
