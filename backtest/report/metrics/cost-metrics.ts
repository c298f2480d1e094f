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
    this.fees = this.fees.plus(fill.fee).minus(fill.rebate);
    this.traded = this.traded.plus(
      fill.price
        .mul(fill.quantity)
        .mul(this.contractSizeOf?.(fill.sym) ?? ONE)
        .abs(),
    );
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
