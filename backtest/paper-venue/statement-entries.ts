import type { CashFlow } from '../sim/index.ts';

/** A cash flow of the simulated venue's statement with the id the paper venue serves it under. */
export type StatementEntry = CashFlow & { readonly id: string };

/**
 * Numbers the sim's statement entries for the statement endpoints: `S-<n>`, n counting from 1
 * in booking order. The sim's statement only grows, so an entry keeps its id across requests and
 * a client can dedupe overlapping fetches by it (Keel's choice of id form: the spec names none).
 * @param statement - the sim's cash flows, in booking order
 * @returns the same entries, each with its id
 */
export function statementEntries(statement: readonly CashFlow[]): StatementEntry[] {
  return statement.map((flow, index) => ({ ...flow, id: `S-${index + 1}` }));
}
