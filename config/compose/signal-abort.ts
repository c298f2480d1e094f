import type { ExitCode } from '../cli/exit-codes.ts';
import { forceStopOnSecondSignal } from './session-stop.ts';
import type { StopSignal } from './start-up-signals.ts';

/** A run that SIGINT and SIGTERM cancel: see {@link abortOnSignal}. */
export interface SignalAbort {
  /** Aborted by the first SIGINT or SIGTERM. */
  readonly signal: AbortSignal;
  /** The signal that aborted it, if one did. */
  readonly received: StopSignal | undefined;
  /** Removes the handlers (the run is over). */
  end(): void;
}

/**
 * Cancels a run on the first SIGINT or SIGTERM: it aborts `signal`, so the run stops at its next
 * step and removes what it opened; a second signal, while the run stops, ends the process at once
 * (see `forceStopOnSecondSignal`): the user's way out of a stop that hangs.
 * @param onForce - told the second signal, before the process exits
 * @param exit - ends the process on a second signal (injected in tests)
 * @returns the signal to give the run, the signal received and the way to remove the handlers
 */
export function abortOnSignal(
  onForce: (signal: StopSignal) => void,
  exit?: (code: ExitCode) => void,
): SignalAbort {
  const controller = new AbortController();
  let received: StopSignal | undefined;
  let endForce: (() => void) | undefined;
  const remove = (): void => {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
  };
  const take = (signal: StopSignal): void => {
    remove();
    received = signal;
    endForce = forceStopOnSecondSignal(onForce, exit);
    controller.abort();
  };
  const onInt = (): void => take('SIGINT');
  const onTerm = (): void => take('SIGTERM');
  process.once('SIGINT', onInt);
  process.once('SIGTERM', onTerm);
  return {
    signal: controller.signal,
    get received() {
      return received;
    },
    end: () => {
      remove();
      endForce?.();
    },
  };
}
