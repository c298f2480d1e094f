import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { D } from '../../../core/model/index.ts';
import {
  aMainAndSubVenue,
  aPaperVenue,
  closedAfterEachTest,
  withFirstQuotes,
} from '../../kit/paper-venue-builders.ts';
import { type PaperEndpoint, signedRest } from '../../kit/paper-venue-client.ts';

const opened = closedAfterEachTest();
const ML = '/api/v1/trading/marginLoan/loan';

async function borrow(who: PaperEndpoint, coin: string, amount: string, exchange = 'BINANCE') {
  return (await signedRest(who, 'POST', `${ML}/borrow`, { exchange, coin, amount })).body.code;
}

async function maxLoan(who: PaperEndpoint, coin: string, exchange = 'BINANCE'): Promise<string | undefined> {
  const rows = (await signedRest(who, 'GET', `${ML}/maxLoan`)).body.data as {
    coin: string;
    exchange: string;
    maxLoan: string;
  }[];
  return rows.find((r) => r.coin === coin && r.exchange === exchange)?.maxLoan;
}

describe('the paper venue’s loan pool and per-user quota count every portfolio', () => {
  it('refuses a sub-portfolio the pool (20 000 USDT on BINANCE) the main portfolio has borrowed whole (406018)', async () => {
    const { venue, main, sub } = await aMainAndSubVenue({ usdt: 100_000 });
    opened.venue = await withFirstQuotes(venue);
    expect(await borrow(main, 'USDT', '20000')).toBe(0);
    const pool = await signedRest(main, 'GET', '/api/v1/trading/loan/pool', {
      exchange: 'BINANCE',
      asset: 'USDT',
    });
    expect(pool.body.data).toMatchObject({ maxLoanable: '0' });
    expect(await maxLoan(sub, 'USDT')).toBe('0');
    expect(await borrow(sub, 'USDT', '20000')).toBe(406018);
  });

  it('shares the per-user quota (10 USDC) across portfolios (spec: "shared across portfolios"): 406017', async () => {
    const { venue, main, sub } = await aMainAndSubVenue({ usdt: 100_000 });
    opened.venue = await withFirstQuotes(venue);
    expect(await borrow(main, 'USDC', '10')).toBe(0);
    expect(await maxLoan(sub, 'USDC')).toBe('0');
    expect(await borrow(sub, 'USDC', '10')).toBe(406017);
  });

  it('counts the coin borrowed on other exchanges in /maxLoan, as the borrow’s quota check does', async () => {
    const terms = { annualRate: D('0.08'), userQuota: D(1000), pool: D(20_000) };
    opened.venue = await withFirstQuotes(
      await aPaperVenue({ loans: { assets: { 'BINANCE:USDT': terms, 'OKX:USDT': terms } } }),
    );
    const v = opened.venue;
    expect(await borrow(v, 'USDT', '600', 'OKX')).toBe(0);
    expect(await maxLoan(v, 'USDT', 'BINANCE')).toBe('400');
    expect(await borrow(v, 'USDT', '401', 'BINANCE')).toBe(406017);
    expect(await borrow(v, 'USDT', '400', 'BINANCE')).toBe(0);
  });

  it('lets any portfolio borrow what /maxLoan says and refuses more on the quota or the pool, whatever was borrowed before', async () => {
    // USDC: quota 10 (binds first); USDT: pool 20 000 below the quota 50 000.
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            sub: fc.boolean(),
            coin: fc.constantFrom('USDT', 'USDC'),
            share: fc.double({ min: 0.01, max: 1.5, noNaN: true }),
          }),
          { minLength: 1, maxLength: 5 },
        ),
        async (steps) => {
          const { venue, main, sub } = await aMainAndSubVenue({ usdt: 100_000 });
          opened.venue = await withFirstQuotes(venue);
          try {
            for (const step of steps) {
              const who = step.sub ? sub : main;
              const max = D((await maxLoan(who, step.coin)) ?? '0');
              const amount = D(step.coin === 'USDT' ? 20_000 : 10)
                .mul(step.share)
                .toDecimalPlaces(2);
              if (!amount.gt(0)) continue;
              const code = await borrow(who, step.coin, amount.toFixed());
              if (amount.lte(max)) expect(code).toBe(0);
              else expect([406017, 406018]).toContain(code);
            }
          } finally {
            await venue.close();
            opened.venue = undefined;
          }
        },
      ),
      { numRuns: 12 },
    );
  });
});
