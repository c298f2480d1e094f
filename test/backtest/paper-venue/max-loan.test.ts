import { describe, expect, it } from 'vitest';
import { listFeed } from '../../../backtest/paper-venue/index.ts';
import { D } from '../../../core/model/index.ts';
import { anInstrument } from '../../kit/instrument-builders.ts';
import { aPaperVenue, closedAfterEachTest, T0 } from '../../kit/paper-venue-builders.ts';
import { bboPush, signedRest } from '../../kit/paper-venue-client.ts';

const opened = closedAfterEachTest();
const ML = '/api/v1/trading/marginLoan/loan';

function venue() {
  if (!opened.venue) throw new Error('no venue');
  return opened.venue;
}

async function borrow(coin: string, amount: string): Promise<number> {
  return (await signedRest(venue(), 'POST', `${ML}/borrow`, { exchange: 'BINANCE', coin, amount })).body.code;
}

async function maxLoans(): Promise<Record<string, string>> {
  const rows = (await signedRest(venue(), 'GET', `${ML}/maxLoan`)).body.data as {
    coin: string;
    maxLoan: string;
  }[];
  return Object.fromEntries(rows.map((r) => [r.coin, r.maxLoan]));
}

// The kit's terms: USDT quota 50 000, pool 20 000; USDC quota 10. Keel's defaults: maxBorrowLtv
// 0.5, loan mmr 0.05, ltvWarningLevel 0.45.
describe('GET .../marginLoan/loan/maxLoan: the largest borrow the account would be granted now', () => {
  it('is bounded by the LTV a borrow may leave: 1000 USDT of equity carry 1000 borrowed, not the pool', async () => {
    opened.venue = await aPaperVenue({ startingBalances: { USDT: D(1000) } });
    // Margin: 1000 / 0.05 = 20 000; LTV: 0.5 x 1000 / (1 - 0.5) - 0 = 1000; USDC's quota 10 binds.
    expect(await maxLoans()).toEqual({ USDT: '1000', USDC: '10' });
    expect(await borrow('USDT', '1000.00000001')).toBe(406019);
    expect(await borrow('USDT', '1000')).toBe(0);
  });

  it('counts the loans taken, and says 0 once the LTV is at the warning level', async () => {
    opened.venue = await aPaperVenue({ startingBalances: { USDT: D(1000) } });
    expect(await borrow('USDT', '400')).toBe(0);
    // Equity stays 1000 (the borrowed coins are owed): 0.5 x 1000 / 0.5 - 400 = 600.
    expect(await maxLoans()).toEqual({ USDT: '600', USDC: '10' });
    expect(await borrow('USDT', '600.00000001')).toBe(406019);
    expect(await borrow('USDT', '600')).toBe(0);
    // LTV 1000 / 2000 = 0.5, at or above 0.45: every borrow answers 406020.
    expect(await maxLoans()).toEqual({ USDT: '0', USDC: '0' });
    expect(await borrow('USDC', '1')).toBe(406020);
  });

  it('values a coin at the price of the instrument that values it, so a coin never borrowed yet has a max too', async () => {
    opened.venue = await aPaperVenue({
      instruments: [anInstrument('OKX_SPOT_ETH_USDT')],
      startingBalances: { USDT: D(1000) },
      feed: listFeed([bboPush('OKX_SPOT_ETH_USDT', '1999', '2001', T0)]),
      loans: { assets: { 'OKX:ETH': { annualRate: D('0.08'), userQuota: D(100), pool: D(100) } } },
    });
    const ethMax = async () =>
      (
        (await signedRest(venue(), 'GET', `${ML}/maxLoan`)).body.data as { coin: string; maxLoan: string }[]
      )[0]?.maxLoan;
    // No price yet: the value of a borrow is unknown (406019), so nothing may be borrowed.
    expect(await ethMax()).toBe('0');
    venue().feed.step(1);
    await venue().feed.until(1);
    // ETH at its mid 2000; LTV: 0.5 x 1000 / (1 - 0.5) = 1000 USDT = 0.5 ETH.
    expect(await ethMax()).toBe('0.5');
    const take = (amount: string) =>
      signedRest(venue(), 'POST', `${ML}/borrow`, { exchange: 'OKX', coin: 'ETH', amount });
    expect((await take('0.50000001')).body.code).toBe(406019);
    expect((await take('0.5')).body.code).toBe(0);
  });

  it('is bounded by the margin the loans need when that binds before the LTV', async () => {
    opened.venue = await aPaperVenue({
      startingBalances: { USDT: D(1000) },
      loans: {
        assets: { 'BINANCE:USDT': { annualRate: D('0.08'), userQuota: D(50_000), pool: D(20_000) } },
        maintenanceMarginRate: D('0.5'),
        maxBorrowLtv: D('0.9'),
        ltvWarningLevel: D('0.9'),
      },
    });
    // Margin: 1000 / 0.5 = 2000; LTV: 0.9 x 1000 / 0.1 = 9000.
    expect(await maxLoans()).toEqual({ USDT: '2000' });
    expect(await borrow('USDT', '2000.00000001')).toBe(406016);
    expect(await borrow('USDT', '2000')).toBe(0);
  });
});

describe('GET .../marginLoan/loan/config', () => {
  it('names each row’s exchange and the leverage a loan allows, 1 / (1 - maxBorrowLtv)', async () => {
    opened.venue = await aPaperVenue({
      loans: {
        assets: {
          'BINANCE:USDT': { annualRate: D('0.08'), userQuota: D(50_000), pool: D(20_000) },
          'OKX:USDT': { annualRate: D('0.1'), userQuota: D(50_000), pool: D(5_000) },
        },
      },
    });
    const rows = (await signedRest(venue(), 'GET', `${ML}/config`)).body.data;
    expect(rows).toEqual([
      {
        coin: 'USDT',
        exchange: 'BINANCE',
        leverage: '2',
        maxBorrowQuota: '50000',
        maintenanceMarginRate: '0.05',
        annualInterestRate: '0.08',
      },
      {
        coin: 'USDT',
        exchange: 'OKX',
        leverage: '2',
        maxBorrowQuota: '50000',
        maintenanceMarginRate: '0.05',
        annualInterestRate: '0.1',
      },
    ]);
  });
});
