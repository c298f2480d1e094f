import { describe, expect, it } from 'vitest';
import {
  annualizedVolatility,
  CRYPTO_ANNUALIZATION,
  EQUITY_ANNUALIZATION,
  periodReturns,
} from '../../../../backtest/report/index.ts';
import { D } from '../../../../core/model/index.ts';

const MIN = 60_000;
const DAY = 86_400_000;

/** Two US sessions of one-minute equity (Mon and Tue 09:30-16:00 EST), seeded returns. */
function twoSessions(): { curve: { ts: number; equity: ReturnType<typeof D> }[]; minuteReturns: number[] } {
  const monday = Date.UTC(2024, 0, 8, 14, 30);
  let equity = 100_000;
  let seed = 7;
  const curve = [{ ts: monday, equity: D(equity.toFixed(6)) }];
  const minuteReturns: number[] = [];
  for (const day of [0, 1]) {
    for (let m = 1; m <= 390; m++) {
      seed = (seed * 16807) % 2147483647;
      const r = (seed / 2147483647 - 0.5) * 0.002 + 0.00002;
      equity *= 1 + r;
      curve.push({ ts: monday + day * DAY + m * MIN, equity: D(equity.toFixed(6)) });
      minuteReturns.push(Number(curve.at(-1)?.equity) / Number(curve.at(-2)?.equity) - 1);
    }
  }
  return { curve, minuteReturns };
}

describe('per-sample annualization of US equities', () => {
  it("steps through the session's minutes only: no zero returns for the night, 252 x 390 periods a year", () => {
    const { curve, minuteReturns } = twoSessions();
    const r = periodReturns(curve, EQUITY_ANNUALIZATION);
    expect(r.period).toBe('sample');
    expect(r.periodsPerYear).toBe(252 * 390);
    expect(r.returns).toHaveLength(780);
    // Tuesday's first minute holds the overnight move: the returns are the trading-minute returns.
    for (const [i, x] of r.returns.entries()) expect(x).toBeCloseTo(minuteReturns[i] as number, 12);
    expect(annualizedVolatility(r.returns, r.periodsPerYear)).toBeCloseTo(
      annualizedVolatility(minuteReturns, 252 * 390) as number,
      12,
    );
  });

  it('gives a user who names 252 x 390 periods a year the same figures as the default', () => {
    const { curve } = twoSessions();
    expect(periodReturns(curve, { ...EQUITY_ANNUALIZATION, periodsPerYear: 252 * 390 })).toEqual(
      periodReturns(curve, EQUITY_ANNUALIZATION),
    );
  });

  it('keeps the calendar grid round the clock for crypto: a quiet night is zero-return minutes', () => {
    const { curve } = twoSessions();
    const r = periodReturns(curve, CRYPTO_ANNUALIZATION);
    expect(r.periodsPerYear).toBe(365 * 1440);
    // Monday 14:30 to Tuesday 21:00 UTC: 30.5 h of minutes.
    expect(r.returns).toHaveLength(30.5 * 60);
  });
});
