import type { Logger } from 'pino';
import type { StrategyIntent, UserEvent } from '../../model/index.ts';
import { COMMAND_NOT_APPLIED, COMMAND_OUTCOME_UNKNOWN } from '../../model/index.ts';
import { intentLogFields } from './intent-log-fields.ts';
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
  /**
   * Reports that the command did not take effect, or that its outcome stays unknown: a sentence,
   * and the Keel-local code that tells the two apart ({@link COMMAND_NOT_APPLIED}: safe to send
   * again; {@link COMMAND_OUTCOME_UNKNOWN}: it may have run, do not send it again blindly).
   */
  readonly refuse: (command: StrategyIntent, message: string, code: number) => void;
  readonly logger: Logger;
}

/**
 * Resolves a REST command whose reply was lost (timeout, network error): looks up what the venue
 * holds until it shows the command took effect or the policy's lookups are spent (an algo order
 * the venue shows in a state Keel does not know is looked up until they are spent, then ended
 * CANCELLED with a warning, see `algoOrderAnswer`), and emits the
 * venue's state (not the loans a lookup read when a loan read sent after it was applied first:
 * see `loan-read-order.ts`). The command is never re-sent. When the venue shows it did not take
 * effect, the strategy is told so with code {@link COMMAND_NOT_APPLIED} (-2: safe to send
 * again); when the lookups failed, or the venue's state cannot show the outcome, with
 * {@link COMMAND_OUTCOME_UNKNOWN} (-1: it may have run).
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
    { ...intentLogFields(command.intent), strategy: command.strategyId, err: what },
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
      deps.logger.warn(
        { ...intentLogFields(command.intent), err: String(error) },
        'lookup of a lost REST reply failed',
      );
      continue;
    }
    // An algo order in a state Keel does not know may still be live: looked up again while the policy allows.
    if (verdict.applied && verdict.unknownAlgoStates === undefined) break;
  }
  // A read of the loans older than one already applied would put its stale listing over it.
  const stale = verdict?.loanRead !== undefined && !deps.loanReads.admit(verdict.loanRead);
  for (const event of stale ? [] : (verdict?.events ?? [])) deps.emit(event);
  if (verdict !== undefined && lookupError === undefined && verdict.unknownAlgoStates !== undefined)
    deps.logger.warn(
      { ...intentLogFields(command.intent), algoOrders: verdict.unknownAlgoStates },
      `algo order read back ${deps.policy.attempts} times in a state Keel does not know: ended CANCELLED in Keel, though the venue may still hold it (check it on the venue)`,
    );
  if (verdict?.applied === true) return;
  const tries = deps.policy.attempts;
  if (verdict === undefined || lookupError !== undefined) {
    deps.refuse(
      command,
      `${what}; its outcome is unknown: the venue could not be reached to look it up (${String(lookupError)}); not re-sent`,
      COMMAND_OUTCOME_UNKNOWN,
    );
  } else if (verdict.unknown === true) {
    deps.refuse(
      command,
      `${what}; its outcome is unknown: ${verdict.detail}; not re-sent`,
      COMMAND_OUTCOME_UNKNOWN,
    );
  } else {
    deps.refuse(
      command,
      `${what}; looked up ${tries} times: ${verdict.detail}, so it did not take effect (not re-sent)`,
      COMMAND_NOT_APPLIED,
    );
  }
}
