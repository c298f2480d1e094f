import { type IntentDenied, intentSym } from '../../core/kernel/index.ts';
import type { DenialRecord } from '../report/index.ts';

/**
 * A denial as a result lists it.
 * @param denial - what the kernel told the strategy (`onDenied`)
 * @returns the record
 */
export function denialRecordOf(denial: IntentDenied): DenialRecord {
  const sym = denial.intent === undefined ? denial.sym : intentSym(denial.intent);
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
