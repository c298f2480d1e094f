import type { Dec, Execution } from '../../../core/model/index.ts';
import { ONE, ZERO } from '../../../core/model/index.ts';

/** What trading cost and how much it traded. */
export interface CostStats {
  /** Σ (fee - rebate) over all fills, in the settle asset. */
  readonly feesPaid: Dec;
  /** Traded notional: Σ price x quantity x contract size over all fills. */
  readonly turnover: Dec;
  /** turnover / mean equity; null when mean equity is not positive. */
  readonly turnoverRatio: number | null;
}

/**
 * Fees paid and turnover of a run.
 * @param fills - all executions, read once (an array or a record log)
 * @param meanEquity - mean equity over the run (for the turnover ratio)
 * @param contractSizeOf - units of base per contract of a sym; 1 when undefined
 * @returns fees, turnover and turnover ratio
 */
export function costStats(
  fills: Iterable<Execution>,
  meanEquity: number | null,
  contractSizeOf?: (sym: string) => Dec | undefined,
): CostStats {
  let feesPaid = ZERO;
  let turnover = ZERO;
  for (const fill of fills) {
    feesPaid = feesPaid.plus(fill.fee).minus(fill.rebate);
    turnover = turnover.plus(
      fill.price
        .mul(fill.quantity)
        .mul(contractSizeOf?.(fill.sym) ?? ONE)
        .abs(),
    );
  }
  return {
    feesPaid,
    turnover,
    turnoverRatio: meanEquity === null || meanEquity <= 0 ? null : turnover.toNumber() / meanEquity,
  };
}
