import type { IntentKind } from '../../core/model/index.ts';
import { rejectionReason, SIM_ERRORS, type SimErrorName } from './sim-errors.ts';
import { emit, type SimState } from './sim-state.ts';

/**
 * Reports a refused non-order command (cancel, modify, close position, algo, loan, position mode,
 * duplicate clientOrderId) as a CommandRejectedEvent with the venue's code.
 * @param state - the venue
 * @param ref - the command's caller reference
 * @param intentKind - which command
 * @param name - the error
 * @param detail - what exactly was wrong
 */
export function rejectCommand(
  state: SimState,
  ref: string,
  intentKind: IntentKind,
  name: SimErrorName,
  detail?: string,
): void {
  emit(state, {
    kind: 'commandRejected',
    ref,
    intentKind,
    code: SIM_ERRORS[name].code,
    message: rejectionReason(name, detail),
  });
}
