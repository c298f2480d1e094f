import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatPeriod, warmUpFrom } from '../../../core/kernel/index.ts';
import { BAR_INTERVAL_MS } from '../../../core/model/index.ts';

describe('warm-up period', () => {
  it('counted in bars, reaches back over exactly that many whole bars closed before the start', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.values(BAR_INTERVAL_MS)),
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 20_000, max: 40_000 }),
        fc.nat({ max: 86_400_000 }),
        (align, bars, steps, offset) => {
          // Any time, on the grid or inside a step.
          const until = steps * align + (offset % align);
          const from = warmUpFrom({ periodMs: bars * align, alignMs: align }, until);
          expect(from % align).toBe(0);
          // Bars open on the grid from `from`; a bar is history when it closed before the start.
          let whole = 0;
          for (let open = from; open + align < until; open += align) whole++;
          expect(whole).toBe(bars);
        },
      ),
    );
  });

  it('as a plain period, reaches back by it from the start', () => {
    expect(warmUpFrom({ periodMs: 3_600_000 }, 10_000_000)).toBe(6_400_000);
  });

  it('is written for people in the largest unit that reads well', () => {
    expect([
      formatPeriod(172_800_000),
      formatPeriod(72_000_000),
      formatPeriod(300_000),
      formatPeriod(45_000),
    ]).toEqual(['2 d', '20 h', '5 min', '45 s']);
  });
});
