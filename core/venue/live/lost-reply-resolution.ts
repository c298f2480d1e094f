import type { Logger } from 'pino';
import type { StrategyIntent, UserEvent } from '../../model/index.ts';
import {
  type LostReplyLookupContext,
  type LostReplyVerdict,
  lookUpLostCommand,
} from './lost-reply-lookups.ts';

/**
 * How a REST command whose reply was lost is looked up. Keel's choice, default 4 lookups 0, 0.5,
 * 1 and 2 s after the failure: a REST command has normally run by the time its reply times out,
 * and a close's market order fills within moments; a command still not seen after that did not
 * take effect.
 */
export interface LostReplyPolicy {
  /** How many lookups at most. */
  readonly attempts: number;
  /** Wait before the second lookup, ms; it doubles after each. */
  readonly spacingMs: number;
}

/** The default lost-reply policy. */
export const DEFAULT_LOST_REPLY_LOOKUPS: LostReplyPolicy = { attempts: 4, spacingMs: 500 };

/** What resolving a lost reply needs besides the lookups. */
export interface LostReplyResolution extends LostReplyLookupContext {
  readonly policy: LostReplyPolicy;
  /** Waits, on the injected timer. */
  readonly wait: (ms: number) => Promise<void>;
  readonly emit: (event: UserEvent) => void;
  /** Reports that the command did not take effect (or could not be checked), as a sentence. */
  readonly refuse: (command: StrategyIntent, message: string) => void;
  readonly logger: Logger;
}

/**
 * Resolves a REST command whose reply was lost (timeout, network error): looks up what the venue
 * holds until it shows the command took effect or the policy's lookups are spent, and emits the
 * venue's state. Only when the venue shows it did not take effect (or cannot be reached) is the
 * strategy told so, with the reason; the command is never re-sent.
 * @param command - the command
 * @param failure - what the REST client threw
 * @param deps - lookups, policy, timer and where events go
 * @returns when resolved
 */
export async function resolveLostReply(
  command: StrategyIntent,
  failure: unknown,
  deps: LostReplyResolution,
): Promise<void> {
  const what = failure instanceof Error ? failure.message : String(failure);
  deps.logger.warn(
    { ref: command.intent.ref, kind: command.intent.kind, err: what },
    'REST reply lost: looking up',
  );
  let spacing = deps.policy.spacingMs;
  let verdict: LostReplyVerdict | undefined;
  let lookupError: unknown;
  for (let attempt = 0; attempt < deps.policy.attempts; attempt++) {
    if (attempt > 0) {
      await deps.wait(spacing);
      spacing *= 2;
    }
    try {
      verdict = await lookUpLostCommand(command.intent, deps);
      lookupError = undefined;
    } catch (error) {
      lookupError = error;
      deps.logger.warn({ ref: command.intent.ref, err: String(error) }, 'lookup of a lost REST reply failed');
      continue;
    }
    if (verdict.applied) break;
  }
  for (const event of verdict?.events ?? []) deps.emit(event);
  if (verdict?.applied === true) return;
  const tries = deps.policy.attempts;
  deps.refuse(
    command,
    verdict === undefined || lookupError !== undefined
      ? `${what}; its outcome is unknown: the venue could not be reached to look it up (${String(lookupError)}); not re-sent`
      : verdict.unknown === true
        ? `${what}; its outcome is unknown: ${verdict.detail}; not re-sent`
        : `${what}; looked up ${tries} times: ${verdict.detail}, so it did not take effect (not re-sent)`,
  );
}
