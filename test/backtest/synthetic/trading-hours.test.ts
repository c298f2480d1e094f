import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InstrumentSimulator, SYNTHETIC_MARKETS, usRegularHours } from '../../../backtest/synthetic/index.ts';
import { isUsEquitySessionOpen, seededRandom } from '../../../core/kernel/index.ts';

const at = (iso: string): number => Date.parse(iso);
const MINUTE = 60_000;

describe('usRegularHours', () => {
  it('opens 09:30-16:00 New York: 14:30-21:00 UTC in winter, 13:30-20:00 UTC in summer', () => {
    const hours = usRegularHours();
    expect(hours.isOpen(at('2025-01-06T14:29:59Z'))).toBe(false);
    expect(hours.isOpen(at('2025-01-06T14:30:00Z'))).toBe(true);
    expect(hours.isOpen(at('2025-01-06T20:59:59Z'))).toBe(true);
    expect(hours.isOpen(at('2025-01-06T21:00:00Z'))).toBe(false);
    expect(hours.isOpen(at('2025-07-07T13:30:00Z'))).toBe(true);
    expect(hours.isOpen(at('2025-07-07T19:59:59Z'))).toBe(true);
    expect(hours.isOpen(at('2025-07-07T20:00:00Z'))).toBe(false);
    expect(hours.isOpen(at('2025-07-12T15:00:00Z'))).toBe(false);
  });

  it('finds the next open across the night, the weekend and the change to summer time', () => {
    const hours = usRegularHours();
    expect(hours.nextOpen(at('2025-07-07T15:00:00Z'))).toBe(at('2025-07-07T15:00:00Z'));
    expect(hours.nextOpen(at('2025-07-07T20:00:00Z'))).toBe(at('2025-07-08T13:30:00Z'));
    expect(hours.nextOpen(at('2025-07-11T21:00:00Z'))).toBe(at('2025-07-14T13:30:00Z'));
    // Friday 7 March 2025 is in EST; Monday 10 March in EDT.
    expect(hours.nextOpen(at('2025-03-07T21:00:00Z'))).toBe(at('2025-03-10T13:30:00Z'));
  });

  it('agrees with the simulated venue session at any time, asked in any order', () => {
    const hours = usRegularHours();
    const range = fc.integer({ min: at('2024-01-01T00:00:00Z'), max: at('2027-12-31T00:00:00Z') });
    fc.assert(
      fc.property(fc.array(range, { minLength: 1, maxLength: 20 }), (times) => {
        for (const ts of times) {
          expect(hours.isOpen(ts)).toBe(isUsEquitySessionOpen(ts));
          const next = hours.nextOpen(ts);
          expect(next).toBeGreaterThanOrEqual(ts);
          expect(isUsEquitySessionOpen(next)).toBe(true);
        }
      }),
    );
  });
});

describe('the SYNTHETIC AAPL market', () => {
  const aapl = SYNTHETIC_MARKETS.find((m) => m.sym === 'US_EQUITY_AAPL');

  it('trades and prints bars only in the New York session in summer', () => {
    if (aapl === undefined) throw new Error('no synthetic AAPL market');
    const start = at('2025-07-07T12:00:00Z');
    const sim = new InstrumentSimulator(aapl, seededRandom(5), start);
    expect(sim.nextTs).toBe(at('2025-07-07T13:30:00Z'));
    const times: number[] = [];
    const sink = (ts: number): void => {
      times.push(ts);
    };
    let boundary = start + MINUTE;
    const end = at('2025-07-08T12:00:00Z');
    let bars = 0;
    while (boundary <= end) {
      while (sim.nextTs < boundary) sim.step(sink);
      bars += sim.closeBar(boundary, sink);
      boundary += MINUTE;
    }
    expect(bars).toBe(390);
    expect(times.length).toBeGreaterThan(1000);
    expect(Math.min(...times)).toBe(at('2025-07-07T13:30:00Z'));
    expect(Math.max(...times)).toBe(at('2025-07-07T20:00:00Z'));
  });
});
