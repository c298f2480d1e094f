import type { IntentDenied } from '../../core/kernel/index.ts';
import type { Intent } from '../../core/model/index.ts';
import type { DenialRecord } from '../report/index.ts';

/**
 * The sym an intent names, for the denials list.
 * @param intent - the intent, when the denial carries it
 * @returns the sym (the syms, space-separated, of a close of several positions), or undefined
 *   when it names none
 */
function symOf(intent: Intent | undefined): string | undefined {
  if (intent === undefined) return undefined;
  if ('sym' in intent && typeof intent.sym === 'string') return intent.sym;
  if (intent.kind === 'closePositions') return intent.symList.join(' ');
  return undefined;
}

/**
 * A denial as a result lists it.
 * @param denial - what the kernel told the strategy (`onDenied`)
 * @returns the record
 */
export function denialRecordOf(denial: IntentDenied): DenialRecord {
  const sym = symOf(denial.intent);
  return {
    ts: denial.ts,
    strategyId: denial.strategyId,
    intentKind: denial.intentKind,
    ref: denial.ref,
    ...(sym === undefined ? {} : { sym }),
    source: denial.source,
    check: denial.check,
    reason: denial.reason,
  };
}
