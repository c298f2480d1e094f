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

describe('the equity of each period', () => {
  it("reads only each period's last equity, not every sample's", () => {
    const HOUR = 3_600_000;
    let reads = 0;
    const start = Date.UTC(2024, 0, 1);
    const curve = Array.from({ length: 5 * 24 + 1 }, (_, i) => {
      const equity = D(10_000 + i);
      return {
        ts: start + i * HOUR,
        get equity() {
          reads++;
          return equity;
        },
      };
    });
    const r = periodReturns(curve, CRYPTO_ANNUALIZATION);
    expect(r.period).toBe('day');
    // Jan 1 00:00 to Jan 6 00:00: the start, then the last sample of each of five days, each day
    // ending at its midnight (no sixth day of no length from Jan 6 00:00).
    expect(r.returns).toEqual([
      10_024 / 10_000 - 1,
      ...[1, 2, 3, 4].map((d) => (10_000 + 24 * (d + 1)) / (10_000 + 24 * d) - 1),
    ]);
    expect(reads).toBe(6);
  });
});

describe('the automatic period', () => {
  const HOUR = 3_600_000;
  const hourly = (start: number, hours: number) =>
    Array.from({ length: hours + 1 }, (_, i) => ({ ts: start + i * HOUR, equity: D(10_000 + 10 * i) }));

  it('takes per-sample returns over a 27-hour run that touches three UTC days, as over one that touches two', () => {
    const acrossTwoMidnights = periodReturns(hourly(Date.UTC(2023, 11, 31, 23), 27), CRYPTO_ANNUALIZATION);
    const acrossOne = periodReturns(hourly(Date.UTC(2024, 0, 1, 1), 27), CRYPTO_ANNUALIZATION);
    expect(acrossTwoMidnights.period).toBe('sample');
    expect(acrossOne.period).toBe('sample');
    expect(acrossTwoMidnights.returns).toHaveLength(27 * 60);
  });

  it('takes daily returns once the run lasts three days', () => {
    const r = periodReturns(hourly(Date.UTC(2024, 0, 1, 1), 72), CRYPTO_ANNUALIZATION);
    expect(r.period).toBe('day');
    expect(r.periodsPerYear).toBe(365);
    // Jan 1 01:00 to Jan 4 01:00: the rest of Jan 1, Jan 2, Jan 3 and the first hour of Jan 4.
    expect(r.returns).toHaveLength(4);
  });
});

describe('daily annualization of US equities with extended hours', () => {
  /** Weekdays Mon 2024-01-08 to Fri 01-19 (EST), samples at 04:00, 12:00 and 19:30 New York. */
  function extendedWeekdays(): { ts: number; equity: ReturnType<typeof D> }[] {
    const curve: { ts: number; equity: ReturnType<typeof D> }[] = [];
    let equity = 100_000;
    for (let day = 0; day < 12; day++) {
      const date = Date.UTC(2024, 0, 8 + day);
      const weekday = new Date(date).getUTCDay();
      if (weekday === 0 || weekday === 6) continue;
      for (const hourUtc of [9, 17, 24.5]) {
        equity += 100 * ((day % 3) - 1) + 10;
        curve.push({ ts: date + hourUtc * 3_600_000, equity: D(equity) });
      }
    }
    return curve;
  }

  it("takes each New York day's last equity: Friday's 19:30 after-hours (00:30 UTC Saturday) make no Saturday period", () => {
    const curve = extendedWeekdays();
    const r = periodReturns(curve, EQUITY_ANNUALIZATION);
    expect(r.period).toBe('day');
    // 10 trading days: the start and each day's 19:30 New York sample, 10 daily returns.
    expect(r.returns).toHaveLength(10);
    const dayEnds = curve.filter((_, i) => i % 3 === 2).map((s) => Number(s.equity));
    const expected = dayEnds.map(
      (e, i) => e / (i === 0 ? Number(curve[0]?.equity) : (dayEnds[i - 1] as number)) - 1,
    );
    for (const [i, x] of r.returns.entries()) expect(x).toBeCloseTo(expected[i] as number, 15);
  });

  it('keeps UTC days for crypto', () => {
    const r = periodReturns(extendedWeekdays(), CRYPTO_ANNUALIZATION);
    // UTC days: Mon 8 .. Sat 13 and Mon 15 .. Sat 20 hold samples, 12 days.
    expect(r.returns).toHaveLength(12);
  });
});
