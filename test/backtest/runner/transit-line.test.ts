import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TransitLine } from '../../../backtest/runner/transit-line.ts';

describe('transit line', () => {
  it('gives the events back first in first out, with the time of the one at its head', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constant(-1)), { maxLength: 5000 }),
        (steps) => {
          // A step >= 0 pushes an event that many ms after the last one; -1 shifts one when any.
          const line = new TransitLine<number>();
          const expected: { at: number; event: number }[] = [];
          let at = 0;
          steps.forEach((step, i) => {
            if (step >= 0) {
              at += step;
              line.push(at, i);
              expected.push({ at, event: i });
            } else if (expected.length > 0) {
              expect(line.shift()).toBe(expected.shift()?.event);
            }
            expect(line.empty).toBe(expected.length === 0);
            expect(line.nextAt).toBe(expected[0]?.at ?? Number.POSITIVE_INFINITY);
          });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps its storage while events come and go, and doubles it only when more are on their way', () => {
    const line = new TransitLine<number>();
    for (let i = 0; i < 100_000; i++) {
      line.push(i, i);
      if (i >= 3) expect(line.shift()).toBe(i - 3);
    }
    expect(line.slots).toBe(1024);
    for (let i = 0; i < 3000; i++) line.push(100_000 + i, 100_000 + i);
    expect(line.slots).toBe(4096);
    const order: number[] = [];
    while (!line.empty) order.push(line.shift());
    expect(order).toEqual([99_997, 99_998, 99_999, ...Array.from({ length: 3000 }, (_, i) => 100_000 + i)]);
  });
});
