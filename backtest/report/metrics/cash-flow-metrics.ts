import type { Dec } from '../../../core/model/index.ts';
import { ZERO } from '../../../core/model/index.ts';
import type { CashFlowRecord, LiquidationRecord } from '../result/cash-flow-record.ts';

/**
 * What moved the account's balance besides its fills' PnL and fees. Together with the trade and
 * cost figures they close the account (Keel's accounting identity, checked by the tests):
 *
 *     equityFinal - equityStart
 *       = Σ closed trades' grossPnl + Σ open lots' unrealized PnL
 *         - feesPaid - fundingPaid - interestPaid
 *
 * where `feesPaid` already holds the liquidation fees (a liquidation order's fee is its fill's
 * fee) and Σ trades' `pnl` = Σ `grossPnl` - the fees of their fills. It holds for a run that
 * starts with the account currency only and trades instruments settled in it. Interest charged in
 * a borrowed coin is not in `interestPaid`: it leaves the spot holding of the coin as a sale
 * without proceeds, and the identity then also subtracts each such charge x the price the trade
 * list booked it at (the root README states it; `run-backtest-loan-interest.test.ts` checks it).
 */
export interface CashFlowStats {
  /**
   * Net funding paid, signed: -Σ amount of the FUNDING_FEE cash flows in the account currency
   * (positive = the account paid more funding than it received, negative = it received more).
   */
  readonly fundingPaid: Dec;
  /** Margin-loan interest paid: -Σ amount of the DEDUCT_INTEREST cash flows in the account currency (>= 0). */
  readonly interestPaid: Dec;
}

/** Liquidations the account went through. */
export interface LiquidationStats {
  /** Number of liquidation events (each may close several positions). */
  readonly liquidationCount: number;
  /** Number of liquidation orders filled, over every liquidation event. */
  readonly liquidationFills: number;
  /** Σ liquidation fee of every liquidation fill (part of `feesPaid` too). */
  readonly liquidationFees: Dec;
  /** When the first liquidation was triggered, epoch ms; null when there was none. */
  readonly firstLiquidationTs: number | null;
}

/**
 * Funding and interest paid, from the run's cash flows. Flows in another coin than the account
 * currency (a loan of BTC paying BTC interest) are listed in the result but not summed here:
 * they are not money of the account currency, and the coin they took out of a spot holding is in
 * the trade list's lots already (see {@link CashFlowStats}).
 * @param cashFlows - every cash flow of the run (a loan's borrows and repays count in neither figure)
 * @param accountCurrency - the currency equity is in (e.g. USDT); every flow counts when undefined
 * @returns fundingPaid and interestPaid
 */
export function cashFlowStats(cashFlows: readonly CashFlowRecord[], accountCurrency?: string): CashFlowStats {
  let funding = ZERO;
  let interest = ZERO;
  for (const flow of cashFlows) {
    if (accountCurrency !== undefined && flow.asset !== accountCurrency) continue;
    if (flow.kind === 'FUNDING_FEE') funding = funding.minus(flow.amount);
    else if (flow.kind === 'DEDUCT_INTEREST') interest = interest.minus(flow.amount);
  }
  return { fundingPaid: funding, interestPaid: interest };
}

/** What a run borrowed and repaid of one coin, from its BORROW and REPAY cash flows. */
export interface LoanTotals {
  readonly coin: string;
  /** Σ amount of the BORROW flows (>= 0). */
  readonly borrowed: Dec;
  /** -Σ amount of the REPAY flows (>= 0). */
  readonly repaid: Dec;
  /** borrowed - repaid: the principal still owed at the end (interest is charged as it accrues). */
  readonly owed: Dec;
}

/**
 * Loan principal borrowed, repaid and still owed, per coin, in the order the coins were first borrowed.
 * @param cashFlows - every cash flow of the run
 * @returns one entry per coin with a BORROW or REPAY flow; empty when the run used no loans
 */
export function loanTotals(cashFlows: readonly CashFlowRecord[]): LoanTotals[] {
  const byCoin = new Map<string, { borrowed: Dec; repaid: Dec }>();
  for (const flow of cashFlows) {
    if (flow.kind !== 'BORROW' && flow.kind !== 'REPAY') continue;
    const totals = byCoin.get(flow.asset) ?? { borrowed: ZERO, repaid: ZERO };
    if (flow.kind === 'BORROW') totals.borrowed = totals.borrowed.plus(flow.amount);
    else totals.repaid = totals.repaid.minus(flow.amount);
    byCoin.set(flow.asset, totals);
  }
  return [...byCoin].map(([coin, { borrowed, repaid }]) => ({
    coin,
    borrowed,
    repaid,
    owed: borrowed.minus(repaid),
  }));
}

/**
 * Count, fills, fees and first time of the account's liquidations.
 * @param liquidations - the run's liquidation records
 * @returns the liquidation figures (zero and null without liquidations)
 */
export function liquidationStats(liquidations: readonly LiquidationRecord[]): LiquidationStats {
  let fills = 0;
  let fees = ZERO;
  let first: number | null = null;
  for (const liquidation of liquidations) {
    fills += liquidation.fills.length;
    for (const fill of liquidation.fills) fees = fees.plus(fill.fee);
    if (first === null || liquidation.ts < first) first = liquidation.ts;
  }
  return {
    liquidationCount: liquidations.length,
    liquidationFills: fills,
    liquidationFees: fees,
    firstLiquidationTs: first,
  };
}
