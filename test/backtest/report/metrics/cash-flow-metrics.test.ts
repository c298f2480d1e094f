import { describe, expect, it } from 'vitest';
import {
  type CashFlowRecord,
  cashFlowStats,
  type LiquidationRecord,
  liquidationStats,
  loanTotals,
} from '../../../../backtest/report/index.ts';
import { D } from '../../../../core/model/index.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';

const flow = (kind: CashFlowRecord['kind'], amount: string, asset = 'USDT'): CashFlowRecord => ({
  ts: 1,
  kind,
  asset,
  amount: D(amount),
  ...(kind === 'FUNDING_FEE' ? { sym: SYM } : {}),
});

describe('cash-flow metrics', () => {
  it('nets funding paid against funding received, paid counted positive', () => {
    const stats = cashFlowStats([flow('FUNDING_FEE', '-1.02'), flow('FUNDING_FEE', '-2.08')], 'USDT');
    expect(stats.fundingPaid.toFixed()).toBe('3.1');
    const received = cashFlowStats([flow('FUNDING_FEE', '-1'), flow('FUNDING_FEE', '2.5')], 'USDT');
    expect(received.fundingPaid.toFixed()).toBe('-1.5');
  });

  it('sums interest charges into interestPaid, apart from funding', () => {
    const stats = cashFlowStats([flow('DEDUCT_INTEREST', '-0.1'), flow('DEDUCT_INTEREST', '-0.09')], 'USDT');
    expect(stats.interestPaid.toFixed()).toBe('0.19');
    expect(stats.fundingPaid.toFixed()).toBe('0');
  });

  it("counts a loan's borrows and repays in neither figure: the principal is owed back", () => {
    const stats = cashFlowStats(
      [flow('BORROW', '25000'), flow('DEDUCT_INTEREST', '-0.1'), flow('REPAY', '-10000')],
      'USDT',
    );
    expect([stats.interestPaid.toFixed(), stats.fundingPaid.toFixed()]).toEqual(['0.1', '0']);
  });

  it('totals loan principal per coin, in the order first borrowed: borrowed, repaid and still owed', () => {
    const totals = loanTotals([
      flow('FUNDING_FEE', '-1'),
      flow('BORROW', '0.5', 'BTC'),
      flow('BORROW', '25000'),
      flow('DEDUCT_INTEREST', '-0.1'),
      flow('REPAY', '-10000'),
      flow('BORROW', '1000'),
      flow('REPAY', '-0.5', 'BTC'),
    ]);
    expect(totals.map((t) => [t.coin, t.borrowed.toFixed(), t.repaid.toFixed(), t.owed.toFixed()])).toEqual([
      ['BTC', '0.5', '0.5', '0'],
      ['USDT', '26000', '10000', '16000'],
    ]);
    expect(loanTotals([flow('FUNDING_FEE', '-1'), flow('DEDUCT_INTEREST', '-0.1')])).toEqual([]);
  });

  it('leaves out flows in another coin than the account currency, and sums every coin without one', () => {
    const flows = [flow('DEDUCT_INTEREST', '-0.1'), flow('DEDUCT_INTEREST', '-0.001', 'BTC')];
    expect(cashFlowStats(flows, 'USDT').interestPaid.toFixed()).toBe('0.1');
    expect(cashFlowStats(flows).interestPaid.toFixed()).toBe('0.101');
  });

  it('counts liquidations, their fills and fees, and the first time', () => {
    const liquidation = (ts: number, fees: string[]): LiquidationRecord => ({
      liquidationEventId: `L-${ts}`,
      eventType: 'PARTIAL_LIQUIDATION',
      ts,
      fills: fees.map((fee, i) => ({
        orderId: `o-${ts}-${i}`,
        sym: SYM,
        side: 'SELL',
        quantity: D(1),
        price: D(100),
        fee: D(fee),
      })),
    });
    expect(liquidationStats([liquidation(50, ['1.25', '0.5']), liquidation(20, ['2'])])).toMatchObject({
      liquidationCount: 2,
      liquidationFills: 3,
      firstLiquidationTs: 20,
    });
    expect(liquidationStats([liquidation(50, ['1.25', '0.5'])]).liquidationFees.toFixed()).toBe('1.75');
    expect(liquidationStats([])).toMatchObject({
      liquidationCount: 0,
      liquidationFills: 0,
      firstLiquidationTs: null,
    });
  });
});
