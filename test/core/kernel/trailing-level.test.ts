import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TrailingStep } from '../../../core/kernel/index.ts';
import { TrailingLevel } from '../../../core/kernel/index.ts';

/** Ticks as a feed sends them: decimal text parsed to a number, on the tick grid. */
const TICKS = [
  { tick: 0.1, digits: 1 },
  { tick: 0.01, digits: 2 },
  { tick: 0.25, digits: 2 },
  { tick: 0.5, digits: 1 },
  { tick: 1, digits: 0 },
] as const;

const priceOf = (n: number, grid: (typeof TICKS)[number]) => Number((n * grid.tick).toFixed(grid.digits));

const scenario = fc.record({
  side: fc.constantFrom('BUY' as const, 'SELL' as const),
  grid: fc.constantFrom(...TICKS),
  offsetTicks: fc.integer({ min: 1, max: 40 }),
  activation: fc.option(fc.integer({ min: 900, max: 1100 }), { nil: undefined }),
  walk: fc.array(fc.integer({ min: -30, max: 30 }), { minLength: 1, maxLength: 200 }),
});

/** An exact model on whole ticks: the specification of a trailing stop with a tick offset. */
function modelSteps(side: 'BUY' | 'SELL', offset: number, activation: number | undefined, path: number[]) {
  const sign = side === 'SELL' ? 1 : -1;
  let active = false;
  let best = Number.NEGATIVE_INFINITY;
  let done = false;
  const steps: { step: TrailingStep; stop: number }[] = [];
  for (const n of path) {
    const x = sign * n;
    let step: TrailingStep = 'none';
    if (done) step = 'none';
    else if (!active) {
      if (activation === undefined || x >= sign * activation) {
        active = true;
        best = x;
        step = 'activated';
      }
    } else if (x > best) {
      best = x;
      step = 'moved';
    } else if (x <= best - offset) {
      done = true;
      step = 'triggered';
    }
    steps.push({ step, stop: active ? sign * (best - offset) : Number.NaN });
  }
  return steps;
}

describe('trailing level (the emulated trailing stop state machine)', () => {
  it('a SELL stop of 3 ticks: activates, follows new highs, fires when the price falls to the stop', () => {
    const level = new TrailingLevel({ side: 'SELL', tick: 0.1, offsetType: 'TICKS', offset: 3 });
    expect(level.next(100.3)).toBe('activated');
    expect(level.stopPrice).toBeCloseTo(100, 9);
    expect(level.next(100.1)).toBe('none');
    expect(level.next(100.5)).toBe('moved');
    expect(level.stopTicks).toBe(1002);
    expect(level.next(100.3)).toBe('none');
    expect(level.next(100.2)).toBe('triggered');
    expect(level.next(50)).toBe('none');
  });

  it('a PRICE offset that is not a whole number of ticks rounds the stop away from the market', () => {
    const sell = new TrailingLevel({ side: 'SELL', tick: 0.5, offsetType: 'PRICE', offset: 0.7 });
    sell.next(100);
    expect(sell.stopPrice).toBe(99); // 99.3 -> 99.0
    const buy = new TrailingLevel({ side: 'BUY', tick: 0.5, offsetType: 'PRICE', offset: 0.7 });
    buy.next(100);
    expect(buy.stopPrice).toBe(101); // 100.7 -> 101.0
  });

  it('property: with a tick offset it matches the exact whole-tick model step by step (it triggers exactly when the price crosses the trailing level)', () => {
    fc.assert(
      fc.property(scenario, ({ side, grid, offsetTicks, activation, walk }) => {
        const path: number[] = [];
        let n = 1000;
        for (const d of walk) {
          n = Math.max(1, n + d);
          path.push(n);
        }
        const level = new TrailingLevel({
          side,
          tick: grid.tick,
          offsetType: 'TICKS',
          offset: offsetTicks,
          ...(activation === undefined ? {} : { activationPrice: priceOf(activation, grid) }),
        });
        const expected = modelSteps(side, offsetTicks, activation, path);
        path.forEach((ticks, i) => {
          const want = expected[i] as { step: TrailingStep; stop: number };
          const got = level.next(priceOf(ticks, grid));
          // 'moved' is reported only when the stop changed; with a tick offset every new best moves it.
          expect(got).toBe(want.step);
          if (!Number.isNaN(want.stop)) expect(level.stopTicks).toBe(want.stop);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('property: the stop never moves against the position, and a trigger is a price at or through the stop it had', () => {
    const offsets = fc.oneof(
      fc.record({ offsetType: fc.constant('BPS' as const), offset: fc.integer({ min: 1, max: 500 }) }),
      fc.record({
        offsetType: fc.constant('PRICE' as const),
        offset: fc.double({ min: 0.01, max: 20, noNaN: true }),
      }),
      fc.record({ offsetType: fc.constant('TICKS' as const), offset: fc.integer({ min: 1, max: 40 }) }),
    );
    fc.assert(
      fc.property(scenario, offsets, ({ side, grid, walk }, { offsetType, offset }) => {
        const level = new TrailingLevel({ side, tick: grid.tick, offsetType, offset });
        const sign = side === 'SELL' ? 1 : -1;
        let n = 1000;
        let stopBefore = Number.NaN;
        for (const d of walk) {
          n = Math.max(1, n + d);
          const price = priceOf(n, grid);
          const step = level.next(price);
          // Prices and stops compared in whole ticks (n is the price's).
          if (step === 'triggered') {
            expect(sign * n).toBeLessThanOrEqual(sign * stopBefore);
            return;
          }
          // Not triggered: the price is above a SELL stop (below a BUY stop).
          if (!Number.isNaN(stopBefore)) expect(sign * n).toBeGreaterThan(sign * stopBefore);
          const stop = level.stopTicks;
          if (!Number.isNaN(stopBefore)) expect(sign * stop).toBeGreaterThanOrEqual(sign * stopBefore);
          expect(Number.isInteger(stop)).toBe(true);
          stopBefore = stop;
        }
      }),
      { numRuns: 300 },
    );
  });
});
