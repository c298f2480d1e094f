import { COMMAND_OUTCOME_UNKNOWN, type StrategyIntent, type UserEvent } from '../../model/index.ts';
import { RequestRuleError, VenueError } from '../errors.ts';
import { isOutcomeUnknown } from './outcome-unknown.ts';

/**
 * The `commandRejected` event telling a strategy that a command failed: the venue's code when the
 * venue refused it, 400001 when it broke a request rule of the spec before being sent, else the
 * Keel-local code the caller found (the lost-reply verdict: `COMMAND_NOT_APPLIED` -2 or
 * `COMMAND_OUTCOME_UNKNOWN` -1), else -1 (the socket or the venue unreachable, a 5xx without a
 * venue code, a failure on the venue's side such as 40000, a reply that could not be read: the
 * command may have run). Code 0 is the spec's
 * success code and never denotes a refusal.
 * @param command - the command that failed
 * @param error - why
 * @param now - the client's time, epoch ms
 * @param keelCode - a Keel-local code for a failure without a venue code
 * @returns the event
 */
export function commandRejection(
  command: StrategyIntent,
  error: unknown,
  now: number,
  keelCode?: number,
): Extract<UserEvent, { kind: 'commandRejected' }> {
  const code = rejectionCode(error, keelCode);
  return {
    kind: 'commandRejected',
    ts: now,
    recvTs: now,
    ref: command.intent.ref,
    intentKind: command.intent.kind,
    code,
    message: error instanceof Error ? error.message : String(error),
  };
}

/**
 * The code of the `commandRejected` event a failure makes (see {@link commandRejection}).
 * @param error - why the command failed
 * @param keelCode - a Keel-local code for a failure without a venue code
 * @returns the venue's code, 400001 for a request rule broken, else `keelCode`, else -1
 */
export function rejectionCode(error: unknown, keelCode?: number): number {
  return (
    keelCode ??
    (error instanceof VenueError && error.code !== 0 && !isOutcomeUnknown(error)
      ? error.code
      : error instanceof RequestRuleError
        ? 400001
        : COMMAND_OUTCOME_UNKNOWN)
  );
}
