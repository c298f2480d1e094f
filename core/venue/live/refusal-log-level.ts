import { type IntentKind, refusesAFinalOrder } from '../../model/index.ts';

const ORDER_AMENDS: ReadonlySet<IntentKind> = new Set(['cancelOrder', 'modifyOrder']);

/**
 * The level a refused command is logged at: info for a cancel or modify that lost the race with
 * a fill or cancel (every quoting strategy loses it now and then, and Keel settles it by looking
 * the order up: routine, not a warning), warn for anything else (an operator should look at it).
 * @param kind - the refused intent's kind
 * @param code - the venue's code (or Keel's negative one)
 * @returns the pino level
 */
export function refusalLogLevel(kind: IntentKind, code: number): 'info' | 'warn' {
  return ORDER_AMENDS.has(kind) && refusesAFinalOrder(code) ? 'info' : 'warn';
}
