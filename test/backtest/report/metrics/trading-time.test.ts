import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tradingClock, tradingDayMs } from '../../../../backtest/report/index.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;

describe('the trading-time clock', () => {
  it('is the epoch time itself for a market trading round the clock', () => {
    const clock = tradingClock('24/7');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4e12 }), (ts) => {
        expect(clock(ts)).toBe(ts);
      }),
    );
    expect(tradingDayMs('24/7')).toBe(24 * HOUR);
  });

  it('counts only the US equity session: 6.5 h a weekday, nothing overnight or over the weekend', () => {
    const clock = tradingClock('us-equity');
    const fridayOpen = Date.UTC(2024, 0, 12, 14, 30); // 09:30 EST
    const fridayClose = Date.UTC(2024, 0, 12, 21); // 16:00 EST
    const mondayOpen = Date.UTC(2024, 0, 15, 14, 30);
    expect(clock(fridayClose) - clock(fridayOpen)).toBe(390 * MIN);
    expect(clock(mondayOpen)).toBe(clock(fridayClose));
    expect(clock(Date.UTC(2024, 0, 13, 18))).toBe(clock(mondayOpen)); // Saturday
    expect(clock(Date.UTC(2024, 0, 15, 13))).toBe(clock(mondayOpen)); // Monday pre-market
    expect(clock(mondayOpen + 61 * MIN) - clock(mondayOpen)).toBe(61 * MIN);
    expect(tradingDayMs('us-equity')).toBe(390 * MIN);
  });

  it('opens at 09:30 New York time on the days the clocks change', () => {
    const clock = tradingClock('us-equity');
    // 2024-03-08 (Fri) is on EST, 2024-03-11 (Mon) on EDT: 14:30 and 13:30 UTC.
    const fridayClose = Date.UTC(2024, 2, 8, 21);
    const mondayOpen = Date.UTC(2024, 2, 11, 13, 30);
    expect(clock(mondayOpen)).toBe(clock(fridayClose));
    expect(clock(mondayOpen + MIN) - clock(fridayClose)).toBe(MIN);
  });

  it('never runs backwards', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1.6e12, max: 1.9e12 }),
        fc.integer({ min: 0, max: 10 * 86_400_000 }),
        (a, d) => {
          const clock = tradingClock('us-equity');
          const later = clock(a + d);
          expect(later).toBeGreaterThanOrEqual(tradingClock('us-equity')(a));
          expect(later - tradingClock('us-equity')(a)).toBeLessThanOrEqual(d);
        },
      ),
    );
  });
});
