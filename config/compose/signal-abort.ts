import type { ExitCode } from '../cli/exit-codes.ts';
import { forceStopOnSecondSignal, STOP_SIGNALS, signalExitCode } from './session-stop.ts';
import type { StopSignal } from './start-up-signals.ts';

/** A run that SIGINT, SIGTERM and SIGHUP cancel: see {@link abortOnSignal}. */
export interface SignalAbort {
  /** Aborted by the first SIGINT, SIGTERM or SIGHUP. */
  readonly signal: AbortSignal;
  /** The signal that aborted it, if one did. */
  readonly received: StopSignal | undefined;
  /** Removes the handlers (the run is over). */
  end(): void;
}

/** What a run that signals cancel tells the user: see {@link abortOnSignal}. */
export interface SignalAbortNotices {
  /** Told the first signal, at once: the run stops at its next step, which may be a while. */
  readonly stopping: (signal: StopSignal) => void;
  /** Told the second signal, before the process exits. */
  readonly forced: (signal: StopSignal) => void;
}

/**
 * Cancels a run on the first SIGINT, SIGTERM or SIGHUP (a closed terminal must not kill it with
 * its temporary files and run lock left behind): it says so at once (`stopping`) and aborts
 * `signal`, so the run stops at its next step and removes what it opened; a second signal, while
 * the run stops, ends the process at once (see `forceStopOnSecondSignal`): the user's way out of a
 * stop that hangs.
 * @param notices - what the user is told on the first and on the second signal
 * @param exit - ends the process on a second signal (injected in tests)
 * @returns the signal to give the run, the signal received and the way to remove the handlers
 */
export function abortOnSignal(notices: SignalAbortNotices, exit?: (code: ExitCode) => void): SignalAbort {
  const controller = new AbortController();
  let received: StopSignal | undefined;
  let endForce: (() => void) | undefined;
  const handlers = new Map(STOP_SIGNALS.map((each) => [each, () => take(each)]));
  const remove = (): void => {
    for (const [each, handler] of handlers) process.off(each, handler);
  };
  const take = (signal: StopSignal): void => {
    remove();
    received = signal;
    endForce = forceStopOnSecondSignal(notices.forced, exit);
    notices.stopping(signal);
    controller.abort();
  };
  for (const [each, handler] of handlers) process.once(each, handler);
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

/**
 * Runs a command that SIGINT, SIGTERM and SIGHUP cancel ({@link abortOnSignal}): when a signal
 * aborted it, `forced` is told the signal once the run has stopped and the signal's exit code is
 * returned; any other error is thrown on.
 * @param notices - what the user is told on the first signal, and once stopped (or on a second one)
 * @param run - the command, given the abort signal; it throws the abort's reason when aborted
 * @returns the command's exit code, or the signal's
 */
export async function runAbortable(
  notices: SignalAbortNotices,
  run: (signal: AbortSignal) => Promise<ExitCode>,
): Promise<ExitCode> {
  const stop = abortOnSignal(notices);
  try {
    return await run(stop.signal);
  } catch (error) {
    if (stop.received === undefined || !stop.signal.aborted) throw error;
    notices.forced(stop.received);
    return signalExitCode(stop.received);
  } finally {
    stop.end();
  }
}
