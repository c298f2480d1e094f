import { describe, expect, it } from 'vitest';
import { listFeed } from '../../../backtest/paper-venue/index.ts';
import { D } from '../../../core/model/index.ts';
import { aPaperVenue, closedAfterEachTest } from '../../kit/paper-venue-builders.ts';
import { bboPush, signedRest } from '../../kit/paper-venue-client.ts';

const opened = closedAfterEachTest();
const ML = '/api/v1/trading/marginLoan/loan';
const T0 = Date.UTC(2026, 0, 1);

interface LoanInfo {
  ltv: string;
  riskLevel: string;
  totalLoanValue: string;
  netMarginValue: string;
}

/**
 * Long 100 BTC at 100.1, the market then at 69.9 / 70.0 (about 3 000 of unrealized loss), and
 * 4 000 USDT borrowed; the venue's LTV warning level as given.
 */
async function longUnderwaterWithLoan(ltvWarningLevel: string) {
  opened.venue = await aPaperVenue({
    startingBalances: { USDT: D(10_000) },
    feed: listFeed([
      bboPush('BINANCE_PERP_BTC_USDT', '100.0', '100.1', T0),
      bboPush('BINANCE_PERP_BTC_USDT', '69.9', '70.0', T0 + 1000),
    ]),
    loans: {
      assets: { 'BINANCE:USDT': { annualRate: D('0.08'), userQuota: D(50_000), pool: D(20_000) } },
      ltvWarningLevel: D(ltvWarningLevel),
    },
  });
  const v = opened.venue;
  v.feed.step(1);
  await v.feed.until(1);
  const buy = await signedRest(v, 'POST', '/api/v1/trading/order', {
    sym: 'BINANCE_PERP_BTC_USDT',
    side: 'BUY',
    orderType: 'MARKET',
    orderQty: '100',
  });
  expect(buy.body.code).toBe(0);
  v.feed.step(1);
  await v.feed.until(2);
  const borrow = await signedRest(v, 'POST', `${ML}/borrow`, {
    exchange: 'BINANCE',
    coin: 'USDT',
    amount: '4000',
  });
  expect(borrow.body.code).toBe(0);
  const account = (await signedRest(v, 'GET', '/api/v1/trading/account')).body.data as { equity: string };
  const info = (await signedRest(v, 'GET', `${ML}/info`)).body.data as LoanInfo;
  return { v, equity: D(account.equity), info };
}

describe('the paper venue’s margin-loan info', () => {
  it('reports the LTV the venue enforces, loan value / (equity + loan value), and equity as net margin value', async () => {
    const { equity, info } = await longUnderwaterWithLoan('0.45');
    // Equity 6970.49025 (the position's unrealized loss counted): LTV 4000 / 10970.49 = 0.3646.
    expect(equity.toFixed()).toBe('6970.49025');
    expect({
      ltv: D(info.ltv).toFixed(4),
      netMarginValue: info.netMarginValue,
      value: info.totalLoanValue,
    }).toEqual({
      ltv: D(4000).div(equity.plus(4000)).toFixed(4),
      netMarginValue: equity.toFixed(),
      value: '4000',
    });
    expect(info.riskLevel).toBe('NORMAL');
  });

  it('turns WARNING at the configured ltvWarningLevel, where a borrow is refused (406020)', async () => {
    const { v, info } = await longUnderwaterWithLoan('0.3');
    expect([D(info.ltv).toFixed(4), info.riskLevel]).toEqual(['0.3646', 'WARNING']);
    const more = await signedRest(v, 'POST', `${ML}/borrow`, {
      exchange: 'BINANCE',
      coin: 'USDT',
      amount: '1',
    });
    expect(more.body.code).toBe(406020);
  });
});
