import type { CashFlowRecord } from '../report/index.ts';
import type { CashFlow } from '../sim/index.ts';

/**
 * The simulated venue's statement as the result's cash flows: funding settlements, interest
 * charges, borrows and repays. Its LIQUIDATION_FEE entries are left out: each is the fee of a liquidation fill, already
 * in the fills (and `feesPaid`) and in the result's liquidation records; listing it again would
 * count it twice in any sum of fills and cash flows.
 * @param statement - the venue's cash flows, in booking order
 * @returns the result's cash-flow records, in the same order
 */
export function cashFlowRecordsOf(statement: readonly CashFlow[]): CashFlowRecord[] {
  const records: CashFlowRecord[] = [];
  for (const flow of statement) {
    if (flow.type === 'LIQUIDATION_FEE') continue;
    records.push({
      ts: flow.ts,
      kind: flow.type,
      asset: flow.coin,
      amount: flow.amount,
      ...(flow.sym === undefined ? {} : { sym: flow.sym }),
    });
  }
  return records;
}
