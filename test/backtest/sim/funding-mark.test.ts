import { describe, expect, it } from 'vitest';
import { aMark, aMarket, aQuote, aSim } from '../../kit/sim-builders.ts';

const HOUR = 3_600_000;

describe('sim venue: the mark funding is paid at', () => {
  it('uses the mark stamped at the funding time, even when that event already carries the next funding time', () => {
    const T = 8 * HOUR;
    const t = aSim();
    t.sim.onMarket(aQuote(1, 100, 50, 100, 50));
    t.sim.onMarket(aMark(1, 100, { rate: 0.01, next: T }));
    t.send(aMarket('p', 'BUY', '1'));
    t.sim.advanceTo(2);
    t.sim.onMarket(aMark(T, 120, { rate: 0.02, next: T + 8 * HOUR }));
    // 1 x 120 (the mark at T) x 0.01 (the rate of the funding time it settles, not the next one's)
    expect(t.sim.statement().map((f) => [f.type, f.amount.toFixed(), f.ts])).toEqual([
      ['FUNDING_FEE', '-1.2', T],
    ]);
  });

  it('uses the last mark before the funding time when the next mark comes after it', () => {
    const T = 8 * HOUR;
    const t = aSim();
    t.sim.onMarket(aQuote(1, 100, 50, 100, 50));
    t.sim.onMarket(aMark(1, 100, { rate: 0.01, next: T }));
    t.send(aMarket('p', 'BUY', '1'));
    t.sim.advanceTo(2);
    t.sim.onMarket(aMark(T - 1, 110, { rate: 0.01, next: T }));
    t.sim.onMarket(aMark(T + 1, 120, { rate: 0.02, next: T + 8 * HOUR }));
    expect(t.sim.statement().map((f) => [f.type, f.amount.toFixed(), f.ts])).toEqual([
      ['FUNDING_FEE', '-1.1', T],
    ]);
  });
  it('uses the mark stamped at the funding time when a quote of the same millisecond comes before it', () => {
    const T = 8 * HOUR;
    const t = aSim();
    t.sim.onMarket(aQuote(1, 100, 50, 100, 50));
    t.sim.onMarket(aMark(1, 100, { rate: 0.01, next: T }));
    t.send(aMarket('p', 'BUY', '1'));
    t.sim.advanceTo(2);
    t.sim.onMarket(aQuote(T, 119.9, 50, 120.1, 50));
    t.sim.onMarket(aMark(T, 120, { rate: 0.02, next: T + 8 * HOUR }));
    expect(t.sim.statement().map((f) => [f.type, f.amount.toFixed(), f.ts])).toEqual([
      ['FUNDING_FEE', '-1.2', T],
    ]);
  });

  it('settles at the last mark when nothing stamped at the funding time is a mark', () => {
    const T = 8 * HOUR;
    const t = aSim();
    t.sim.onMarket(aQuote(1, 100, 50, 100, 50));
    t.sim.onMarket(aMark(1, 100, { rate: 0.01, next: T }));
    t.send(aMarket('p', 'BUY', '1'));
    t.sim.advanceTo(2);
    t.sim.onMarket(aQuote(T, 119.9, 50, 120.1, 50));
    t.sim.onMarket(aQuote(T + 5, 119.9, 50, 120.1, 50));
    expect(t.sim.statement().map((f) => [f.type, f.amount.toFixed(), f.ts])).toEqual([
      ['FUNDING_FEE', '-1', T],
    ]);
  });
});
