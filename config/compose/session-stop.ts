import { EXIT, type ExitCode } from '../cli/exit-codes.ts';

/** A signal that stops a session: Ctrl-C, a supervisor's stop, or the terminal closing (SIGHUP). */
export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/** The signals a session stops on, gracefully. */
export const STOP_SIGNALS: readonly StopSignal[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** Why a live or paper session stopped. */
export type SessionStopReason = 'duration' | 'ended' | StopSignal | 'feed';

/** What may stop a live or paper session. */
export interface SessionStopTriggers {
  /** Install SIGINT / SIGTERM / SIGHUP handlers for a graceful stop (default true). */
  readonly handleSignals?: boolean;
  /** Stop after this long; absent = until a signal or `ended`. */
  readonly durationMs?: number;
  /** Resolves when the market source is exhausted (paper mode). */
  readonly ended?: Promise<void>;
  /** The kernel's run: settles when its feed ends (or fails). */
  readonly finished: Promise<void>;
}

/**
 * Waits for the first of the session's stop triggers, then removes the signal handlers and timer
 * it installed.
 * @param triggers - signals, duration, end of the market source and the kernel's run
 * @returns why the session stops
 */
export function waitForStop(triggers: SessionStopTriggers): Promise<SessionStopReason> {
  return new Promise<SessionStopReason>((done) => {
    const timers: NodeJS.Timeout[] = [];
    const handlers = new Map(STOP_SIGNALS.map((signal) => [signal, () => finish(signal)]));
    const finish = (reason: SessionStopReason) => {
      for (const t of timers) clearTimeout(t);
      for (const [signal, handler] of handlers) process.off(signal, handler);
      done(reason);
    };
    if (triggers.handleSignals !== false)
      for (const [signal, handler] of handlers) process.once(signal, handler);
    if (triggers.durationMs !== undefined)
      timers.push(setTimeout(() => finish('duration'), triggers.durationMs));
    triggers.ended?.then(() => finish('ended'));
    triggers.finished.then(
      () => finish('feed'),
      () => finish('feed'),
    );
  });
}

/** Listens to a signal only so that it does not end the process by its default action. */
function ignoreSignal(): void {}

/**
 * The exit code of a run a signal stopped.
 * @param signal - the signal
 * @returns 130 (SIGINT), 143 (SIGTERM) or 129 (SIGHUP)
 */
export function signalExitCode(signal: StopSignal): ExitCode {
  return signal === 'SIGINT' ? EXIT.INTERRUPTED : signal === 'SIGTERM' ? EXIT.TERMINATED : EXIT.HANGUP;
}

/**
 * While a session shuts down (cancelling orders, reading statements, writing the result), a
 * second SIGINT, SIGTERM or SIGHUP ends the process at once: the user's way out of a shutdown that
 * hangs. `onForce` runs first, synchronously, to save what can be saved (the recording) and to say
 * what is lost; then the process exits 130 (SIGINT), 143 (SIGTERM) or 129 (SIGHUP). `keel
 * backtest` arms it on the first signal, which aborts its run at the next batch (`abortOnSignal`).
 * @param onForce - called with the signal before the exit
 * @param exit - ends the process (injected in tests)
 * @returns removes the handlers (call when the shutdown is done)
 */
export function forceStopOnSecondSignal(
  onForce: (signal: StopSignal) => void,
  exit: (code: ExitCode) => void = (code) => process.exit(code),
): () => void {
  const force = (signal: StopSignal) => {
    remove();
    // Further signals are ignored while the recording is saved: with no listener left, a third
    // Ctrl-C would kill the process by signal in the middle of the save.
    for (const other of STOP_SIGNALS) process.on(other, ignoreSignal);
    try {
      onForce(signal);
      exit(signalExitCode(signal));
    } finally {
      // Reached only when `exit` returns (injected in tests).
      for (const other of STOP_SIGNALS) process.off(other, ignoreSignal);
    }
  };
  const handlers = new Map(STOP_SIGNALS.map((signal) => [signal, () => force(signal)]));
  const remove = () => {
    for (const [signal, handler] of handlers) process.off(signal, handler);
  };
  for (const [signal, handler] of handlers) process.once(signal, handler);
  return remove;
}

/**
 * The warning a session's result carries when it stopped on a view of the venue that may be
 * stale: its orders, fills and balances since the outage began were never re-read.
 * @param staleness - the kernel's word on its view when the session's books closed, its
 *   shutdown over (`VenueConnectivity.staleness`)
 * @returns the warning, or undefined when the view was the venue's
 */
export function unreconciledStopWarning(staleness: string | undefined): string | undefined {
  if (staleness === undefined) return undefined;
  return `${staleness} when the session stopped: orders, fills and balances since then may be missing from this result (the venue's order and trade history has them)`;
}

/**
 * What a session's summary notes when its view of the venue was stale as the stop began but the
 * private stream was back and reconciled before the books closed: nothing is missing from the
 * result (the reconciliation re-read the orders, fills and balances; what it corrected is among
 * the result's warnings), so it is no warning.
 * @param stalenessAtStop - the kernel's word on its view when the stop began
 * @returns the note, or undefined when the view was the venue's then
 */
export function reconciledInShutdownNote(stalenessAtStop: string | undefined): string | undefined {
  if (stalenessAtStop === undefined) return undefined;
  return `${stalenessAtStop} when the session stopped; it was back and reconciled before this result was written`;
}

/**
 * The exit code of a session, the most urgent first: orders that may still be open on the venue
 * although `shutdown.cancelAllOrders` asked to cancel them, or commands sent before the stop
 * whose fate is unknown (4), else a strategy fault (3, also when a signal stopped the session: a
 * live session only ends on one), else the signal's own code (130 / 143 / 129), else success.
 * @param stopReason - why the session stopped
 * @param faults - how many strategy faults it recorded
 * @param ordersLeftOpen - how many orders the cancels at stop could not cancel, plus the commands
 *   of unknown fate
 * @returns the exit code
 */
export function sessionExitCode(stopReason: SessionStopReason, faults: number, ordersLeftOpen = 0): ExitCode {
  if (ordersLeftOpen > 0) return EXIT.ORDERS_LEFT_OPEN;
  if (faults > 0) return EXIT.STRATEGY_FAULT;
  return stopReason === 'SIGINT' || stopReason === 'SIGTERM' || stopReason === 'SIGHUP'
    ? signalExitCode(stopReason)
    : EXIT.OK;
}
