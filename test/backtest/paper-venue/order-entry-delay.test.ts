import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { orderEntryDelay } from '../../../backtest/paper-venue/order-entry-delay.ts';
import { seededRandom } from '../../../core/kernel/index.ts';

function draws(seed: number, fixedMs: number, jitterMs: number, count: number): number[] {
  const next = orderEntryDelay({ fixedMs, jitterMs }, seededRandom(seed));
  return Array.from({ length: count }, () => next());
}

describe('paper venue order-entry delay', () => {
  it('is the fixed delay alone without jitter', () => {
    expect(draws(1, 200, 0, 3)).toEqual([200, 200, 200]);
  });

  it('draws whole milliseconds in [fixedMs, fixedMs + jitterMs), the same sequence for the same seed (property)', () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.integer({ min: 0, max: 1_000 }),
        fc.integer({ min: 1, max: 1_000 }),
        (seed, fixedMs, jitterMs) => {
          const a = draws(seed, fixedMs, jitterMs, 20);
          expect(draws(seed, fixedMs, jitterMs, 20)).toEqual(a);
          for (const d of a) {
            expect(Number.isInteger(d)).toBe(true);
            expect(d).toBeGreaterThanOrEqual(fixedMs);
            expect(d).toBeLessThan(fixedMs + jitterMs);
          }
        },
      ),
    );
  });

  it('draws differently from another seed', () => {
    expect(draws(1, 0, 1_000, 20)).not.toEqual(draws(2, 0, 1_000, 20));
  });

  it('refuses a negative delay, naming the leg', () => {
    expect(() => orderEntryDelay({ fixedMs: -1, jitterMs: 0 }, seededRandom(1))).toThrow(
      /latency\.orderEntry must have fixedMs >= 0/,
    );
  });
});
