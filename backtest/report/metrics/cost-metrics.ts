import type { Dec, Execution } from '../../../core/model/index.ts';
import { asNumber, ONE, ZERO } from '../../../core/model/index.ts';

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
 * Fees and turnover summed fill by fill as a run goes (what {@link costStats} sums), so a run
 * need not read its fills back for them.
 */
export class CostTally {
  private fees = ZERO;
  private traded = ZERO;
  private readonly syms = new Set<string>();

  /**
   * @param contractSizeOf - units of base per contract of a sym; 1 when undefined
   */
  constructor(private readonly contractSizeOf?: (sym: string) => Dec | undefined) {}

  /**
   * Adds a fill.
   * @param fill - the execution
   */
  add(fill: Execution): void {
    this.syms.add(fill.sym);
    // Operations that change no digit are skipped (most fills have no rebate and a contract size
    // of 1): decimal.js answers x - 0, x * 1 and |x| of a positive x with a copy of x rounded to
    // the precision, which is x again, as a sum or product it made is already rounded. A zero
    // result is left to decimal.js, which decides its sign.
    const fees = this.fees.plus(fill.fee);
    this.fees = fill.rebate.isZero() && !fees.isZero() ? fees : fees.minus(fill.rebate);
    const value = fill.price.mul(fill.quantity);
    const size = this.contractSizeOf?.(fill.sym);
    const sized = size === undefined || size.eq(ONE) ? value : value.mul(size);
    this.traded = this.traded.plus(sized.isPositive() && !sized.isZero() ? sized : sized.abs());
  }

  /**
   * The syms of the fills added (what the run traded, for its buy & hold benchmark).
   * @returns the syms, in order of first fill
   */
  tradedSyms(): string[] {
    return [...this.syms];
  }

  /**
   * The figures of the fills added.
   * @param meanEquity - mean equity over the run (for the turnover ratio)
   * @returns fees, turnover and turnover ratio
   */
  stats(meanEquity: number | null): CostStats {
    return {
      feesPaid: this.fees,
      turnover: this.traded,
      turnoverRatio: meanEquity === null || meanEquity <= 0 ? null : asNumber(this.traded) / meanEquity,
    };
  }
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
  const tally = new CostTally(contractSizeOf);
  for (const fill of fills) tally.add(fill);
  return tally.stats(meanEquity);
}
