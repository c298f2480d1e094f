import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BacktestResult } from '../../../backtest/report/index.ts';
import { D, type Dec, ZERO } from '../../../core/model/index.ts';
import {
  barRecord,
  fundingCase,
  markRecord,
  PERP_T0,
  runPerp,
  type ScriptedStep,
} from '../../kit/perp-cash-flow-runs.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const aTempDir = tempDirsRemovedAfterAll('keel-runner-cash-flows-');
const MINUTE = 60_000;

const sum = (values: Iterable<Dec>): Dec => {
  let total = ZERO;
  for (const v of values) total = total.plus(v);
  return total;
};

/** What Keel's accounting identity says the equity change is (see CashFlowStats). */
function explainedChange(result: BacktestResult): Dec {
  const m = result.metrics;
  return sum([...result.trades].map((t) => t.grossPnl))
    .minus(m.feesPaid)
    .minus(m.fundingPaid ?? ZERO)
    .minus(m.interestPaid ?? ZERO);
}

async function withResult<T>(result: Promise<BacktestResult>, read: (r: BacktestResult) => T): Promise<T> {
  const r = await result;
  try {
    return read(r);
  } finally {
    r.dispose?.();
  }
}

describe('backtest runner: funding, loan interest and liquidations in the result', () => {
  it('lists the funding settlements as cash flows and nets them into fundingPaid (the audit case c7, by hand)', async () => {
    const seen = await withResult(runPerp(aTempDir(), { ...fundingCase(), startingCash: '10000' }), (r) => ({
      flows: (r.cashFlows ?? []).map(
        (f) => `${f.ts - PERP_T0} ${f.kind} ${f.amount.toFixed()} ${f.asset} ${f.sym}`,
      ),
      fundingPaid: r.metrics.fundingPaid?.toFixed(),
      interestPaid: r.metrics.interestPaid?.toFixed(),
      feesPaid: r.metrics.feesPaid.toFixed(),
      tradePnl: sum([...r.trades].map((t) => t.pnl)).toFixed(),
      grossPnl: sum([...r.trades].map((t) => t.grossPnl)).toFixed(),
      change: r.metrics.equityFinal.minus(r.metrics.equityStart).toFixed(),
      explained: explainedChange(r).toFixed(),
      open: r.openTrades.length,
    }));
    // Long 10 pays 10 x 102 x 0.001 = 1.02 at 00:05; short 10 pays -(-10) x 104 x -0.002 = 2.08 at 00:10.
    expect(seen.flows).toEqual([
      `${5 * MINUTE} FUNDING_FEE -1.02 USDT BINANCE_PERP_TST_USDT`,
      `${10 * MINUTE} FUNDING_FEE -2.08 USDT BINANCE_PERP_TST_USDT`,
    ]);
    // Every fill at 100: gross 0; taker fees 2 (buy 10) + 4 (sell 20) + 2 (closing buy 10) = 8.
    // 9988.90 - 10000 = -11.10 = 0 (gross, nothing open) - 8 (fees) - 3.10 (funding) - 0 (interest).
    expect(seen).toMatchObject({
      fundingPaid: '3.1',
      interestPaid: '0',
      feesPaid: '8',
      tradePnl: '-8',
      grossPnl: '0',
      change: '-11.1',
      explained: '-11.1',
      open: 0,
    });
  });

  it('lists loan interest as cash flows and sums it into interestPaid, which the equity change shows', async () => {
    const flat = ['100', '101', '99', '100'];
    const steps: ScriptedStep[] = [
      { bar: 0, borrow: 10_000 },
      { bar: 3, repay: 10_000 },
    ];
    const seen = await withResult(
      runPerp(aTempDir(), {
        records: Array.from({ length: 6 }, (_, i) => barRecord(i, flat, true)),
        steps,
        startingCash: '10000',
        hourly: true,
        // 8.76 % a year = 0.001 % an hour: 0.1 USDT an hour on 10 000.
        loans: {
          assets: { 'BINANCE:USDT': { annualRate: D('0.0876'), userQuota: D(100_000), pool: D(100_000) } },
        },
      }),
      (r) => ({
        flows: (r.cashFlows ?? []).map((f) => `${f.kind} ${f.amount.toFixed()} ${f.asset}`),
        interestPaid: r.metrics.interestPaid?.toFixed(),
        fundingPaid: r.metrics.fundingPaid?.toFixed(),
        change: r.metrics.equityFinal.minus(r.metrics.equityStart).toFixed(),
        explained: explainedChange(r).toFixed(),
      }),
    );
    // Borrowed at 01:00 (bar 0 closes), repaid at 04:00: three whole hours of 0.1.
    // The principal's way in and out is listed too; it is owed back, so no metric counts it.
    expect(seen.flows).toEqual([
      'BORROW 10000 USDT',
      'DEDUCT_INTEREST -0.1 USDT',
      'DEDUCT_INTEREST -0.1 USDT',
      'DEDUCT_INTEREST -0.1 USDT',
      'REPAY -10000 USDT',
    ]);
    expect(seen).toMatchObject({ interestPaid: '0.3', fundingPaid: '0', change: '-0.3', explained: '-0.3' });
  });

  it('records a liquidation with its fill, fee, time and equity, and counts it in the metrics (the audit case c8)', async () => {
    const bars = [
      ['100', '101', '99', '100'],
      ['100', '101', '99', '100'],
      ['100', '101', '99', '100'],
      ['100', '100.5', '85', '88'],
      ['88', '89', '87', '88'],
      ['88', '89', '87', '88'],
    ];
    const seen = await withResult(
      runPerp(aTempDir(), {
        records: bars.map((ohlc, i) => barRecord(i, ohlc)),
        steps: [{ bar: 0, qty: 10 }],
        startingCash: '100',
      }),
      (r) => ({
        liquidations: r.liquidations ?? [],
        metrics: r.metrics,
        liquidationFill: [...r.fills].find((f) => f.orderId === r.liquidations?.[0]?.fills[0]?.orderId),
        change: r.metrics.equityFinal.minus(r.metrics.equityStart).toFixed(),
        explained: explainedChange(r).toFixed(),
      }),
    );
    expect(seen.liquidations).toHaveLength(1);
    const [liquidation] = seen.liquidations;
    expect(liquidation?.ts).toBe(PERP_T0 + 4 * MINUTE);
    expect(liquidation?.eventType).toBe('FULL_LIQUIDATION');
    expect(liquidation?.equityBefore?.lt(liquidation.maintenanceMargin ?? ZERO)).toBe(true);
    expect(liquidation?.fills).toHaveLength(1);
    const fill = liquidation?.fills[0];
    // The liquidation fee is 1.25 % of the notional closed, and it is the fee of that fill.
    expect(fill?.fee.toFixed()).toBe(fill?.quantity.mul(fill.price).mul('0.0125').toFixed());
    expect(seen.liquidationFill?.fee.toFixed()).toBe(fill?.fee.toFixed());
    expect(liquidation?.equityAfter?.toFixed()).toBe(seen.metrics.equityFinal.toFixed());
    expect(seen.metrics.equityFinal.isNegative()).toBe(true);
    expect(seen.metrics).toMatchObject({
      liquidationCount: 1,
      liquidationFills: 1,
      firstLiquidationTs: PERP_T0 + 4 * MINUTE,
    });
    expect(seen.metrics.liquidationFees?.toFixed()).toBe(fill?.fee.toFixed());
    expect(seen.change).toBe(seen.explained);
  });

  it('leaves no liquidation and no cash flow in the result of a run without them', async () => {
    const flat = ['100', '101', '99', '100'];
    const seen = await withResult(
      runPerp(aTempDir(), {
        records: Array.from({ length: 4 }, (_, i) => barRecord(i, flat)),
        steps: [{ bar: 0, qty: 1 }],
        startingCash: '10000',
      }),
      (r) => ({
        flows: r.cashFlows,
        liquidations: r.liquidations,
        count: r.metrics.liquidationCount,
        barNote: r.meta.assumptions.some((a) =>
          a.startsWith('On bars, equity is sampled once each bar has been matched'),
        ),
      }),
    );
    // The bar model's equity is marked at each bar's close: the report says so (the audit's c14).
    expect(seen).toEqual({ flows: [], liquidations: [], count: 0, barNote: true });
  });

  it('closes the account: equity change = gross trade PnL - fees - funding - interest, whatever is traded and funded (property)', async () => {
    const step = fc.record({ bar: fc.integer({ min: 0, max: 10 }), qty: fc.integer({ min: -15, max: 15 }) });
    const funding = fc.record({
      mark: fc.integer({ min: 90, max: 110 }),
      rate: fc.integer({ min: -30, max: 30 }).map((r) => (r / 10_000).toString()),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 6 }),
        fc.array(funding, { minLength: 3, maxLength: 3 }),
        fc.array(fc.integer({ min: 95, max: 105 }), { minLength: 12, maxLength: 12 }),
        async (steps, fundings, closes) => {
          const records = [
            ...closes.map((close, i) => {
              const c = String(close);
              return barRecord(i, [c, String(close + 1), String(close - 1), c]);
            }),
            ...fundings.map((f, i) =>
              markRecord(
                PERP_T0 + (4 * i + 4) * MINUTE - 30_000,
                String(f.mark),
                f.rate,
                PERP_T0 + (4 * i + 4) * MINUTE,
              ),
            ),
          ];
          const check = await withResult(
            runPerp(aTempDir(), { records, steps: steps.filter((s) => s.qty !== 0), startingCash: '10000' }),
            (r) => ({
              open: r.openTrades.length,
              change: r.metrics.equityFinal.minus(r.metrics.equityStart),
              explained: explainedChange(r),
              fundingFlows: sum((r.cashFlows ?? []).map((f) => f.amount)),
              fundingPaid: r.metrics.fundingPaid ?? ZERO,
            }),
          );
          expect(check.open).toBe(0);
          expect(check.change.minus(check.explained).abs().lte('1e-20')).toBe(true);
          expect(check.fundingPaid.toFixed()).toBe(check.fundingFlows.neg().toFixed());
        },
      ),
      { numRuns: 15 },
    );
  }, 120_000);
});
