import type { IntentKind } from '../../model/index.ts';

/**
 * Venue codes that refuse a cancel or modify of an order already filled or cancelled: the race
 * every quoting strategy loses now and then (its order filled while the cancel travelled), which
 * Keel settles by looking the order up. Routine, not a warning.
 */
const FINAL_ORDER_CODES: ReadonlySet<number> = new Set([401058, 401117]);

const ORDER_AMENDS: ReadonlySet<IntentKind> = new Set(['cancelOrder', 'modifyOrder']);

/**
 * The level a refused command is logged at: info for a cancel or modify that lost the race with
 * a fill or cancel, warn for anything else (an operator should look at it).
 * @param kind - the refused intent's kind
 * @param code - the venue's code (or Keel's negative one)
 * @returns the pino level
 */
export function refusalLogLevel(kind: IntentKind, code: number): 'info' | 'warn' {
  return ORDER_AMENDS.has(kind) && FINAL_ORDER_CODES.has(code) ? 'info' : 'warn';
}
