import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RollingTradeWindow } from '../../../backtest/paper-venue/rolling-trade-window.ts';

describe('rolling trade window (the derived TICKER’s high, low, volume)', () => {
  it('keeps only trades newer than the window (across compactions): high, low and volume equal a recount of them', () => {
    const trades = fc.array(
      fc.record({
        gap: fc.integer({ min: 0, max: 40 }),
        price: fc.integer({ min: 1, max: 500 }),
        qty: fc.integer({ min: 1, max: 9 }),
      }),
      { minLength: 1500, maxLength: 3000 },
    );
    fc.assert(
      fc.property(trades, fc.integer({ min: 1, max: 400 }), (list, windowMs) => {
        const window = new RollingTradeWindow(windowMs);
        const seen: { ts: number; price: number; qty: number }[] = [];
        let ts = 0;
        for (const t of list) {
          ts += t.gap;
          window.add(ts, t.price, t.qty);
          seen.push({ ts, price: t.price, qty: t.qty });
        }
        const inside = seen.filter((t) => t.ts > ts - windowMs);
        expect(window.high).toBe(Math.max(...inside.map((t) => t.price)));
        expect(window.low).toBe(Math.min(...inside.map((t) => t.price)));
        expect(window.volume).toBe(inside.reduce((sum, t) => sum + t.qty, 0));
      }),
      { numRuns: 60 },
    );
  });

  it('is empty before the first trade', () => {
    const window = new RollingTradeWindow(1000);
    expect([window.high, window.low, window.volume]).toEqual([Number.NaN, Number.NaN, 0]);
  });
});
