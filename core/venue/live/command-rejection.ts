import type { StrategyIntent, UserEvent } from '../../model/index.ts';
import { RequestRuleError, VenueError } from '../errors.ts';

/**
 * The `commandRejected` event telling a strategy that a command failed: the venue's code when the
 * venue refused it, 400001 when it broke a request rule of the spec before being sent, -1 for any
 * other failure (the socket or the venue unreachable, an outcome that could not be looked up).
 * @param command - the command that failed
 * @param error - why
 * @param now - the client's time, epoch ms
 * @returns the event
 */
export function commandRejection(
  command: StrategyIntent,
  error: unknown,
  now: number,
): Extract<UserEvent, { kind: 'commandRejected' }> {
  const code = error instanceof VenueError ? error.code : error instanceof RequestRuleError ? 400001 : -1;
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
