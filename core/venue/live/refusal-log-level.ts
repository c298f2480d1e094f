import {
  COMMAND_NOT_APPLIED,
  COMMAND_OUTCOME_UNKNOWN,
  type IntentKind,
  refusesAFinalOrder,
} from '../../model/index.ts';

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

/**
 * What the log says of a failed command, by its code: Keel's own codes are no refusal of the
 * venue's (a command that got no answer may have taken effect; one whose lost answer Keel looked
 * up did not), so they are not logged as one.
 * @param code - the venue's code (or Keel's negative one)
 * @returns the log record's message
 */
export function refusalLogMessage(code: number): string {
  if (code === COMMAND_OUTCOME_UNKNOWN)
    return 'no answer from the venue to a command: it may have taken effect';
  if (code === COMMAND_NOT_APPLIED) return 'no answer from the venue to a command, which did not take effect';
  return 'venue refused a command';
}
