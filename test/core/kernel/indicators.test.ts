import { describe, expect, it } from 'vitest';
import { atr, bollinger, ema, rsi, sma } from '../../../core/kernel/index.ts';

describe('indicators (trading-signals behind a warm-up flag)', () => {
  it('keeps an SMA cold, with no value, until it has seen its period', () => {
    const average = sma(3);
    expect(average.update(1)).toBeUndefined();
    expect(average.update(2)).toBeUndefined();
    expect(average.warm).toBe(false);
    expect(average.update(3)).toBe(2);
    expect(average.warm).toBe(true);
    expect(average.update(7)).toBe(4);
    expect(average.value).toBe(4);
  });

  it('warms EMA, RSI, ATR and Bollinger bands up before giving values', () => {
    const e = ema(5);
    const r = rsi(3);
    const a = atr(3);
    const b = bollinger(4);
    const prices = [10, 11, 12, 11, 13, 14, 13, 15, 16, 15, 17];
    const firstWarm = { ema: -1, rsi: -1, atr: -1, bb: -1 };
    prices.forEach((p, i) => {
      if (e.update(p) !== undefined && firstWarm.ema < 0) firstWarm.ema = i;
      if (r.update(p) !== undefined && firstWarm.rsi < 0) firstWarm.rsi = i;
      if (a.update({ high: p + 1, low: p - 1, close: p }) !== undefined && firstWarm.atr < 0)
        firstWarm.atr = i;
      if (b.update(p) !== undefined && firstWarm.bb < 0) firstWarm.bb = i;
    });
    expect(Object.values(firstWarm).every((i) => i > 0)).toBe(true);
    expect(firstWarm.bb).toBe(3);
    const bands = b.value;
    expect(bands !== undefined && bands.lower < bands.middle && bands.middle < bands.upper).toBe(true);
    expect(r.value).toBeGreaterThan(50);
  });
});
