/** A signal that stops a session. */
export type StopSignal = 'SIGINT' | 'SIGTERM';

/**
 * A SIGINT or SIGTERM that arrived while a session was logging in and reconciling, before its
 * strategies started: the session closed what it had opened and placed nothing.
 */
export class StartUpInterrupted extends Error {
  /**
   * @param signal - the signal
   * @param stage - what the session was doing, e.g. `logging in to the venue`
   */
  constructor(
    readonly signal: StopSignal,
    readonly stage: string,
  ) {
    super(`${signal} during start-up (${stage}): stopped before trading; nothing was placed`);
    this.name = 'StartUpInterrupted';
  }
}

/** The SIGINT / SIGTERM handlers a session holds while it starts. */
export interface StartUpSignals {
  /** The first signal received, if any. */
  readonly received: StopSignal | undefined;
  /** Resolves with the first signal (never when the session handles no signals). */
  readonly arrived: Promise<StopSignal>;
  /** Removes the handlers (the session's stop handlers take over). */
  end(): void;
}

/**
 * Holds SIGINT and SIGTERM from the moment a session begins, so a signal during its start-up
 * (login, reconciliation, onStart, warm-up) stops it gracefully instead of Node's default handler
 * killing the process with its run locks and without a word. Only the first signal is taken: the
 * session says what it does with it, and its shutdown handles a second one. `keel sweep` holds
 * them the same way while its backtests run.
 * @param enabled - false when the session handles no signals (tests): nothing is installed
 * @returns the signal received so far, a promise of it, and the way to remove the handlers
 */
export function watchStartUpSignals(enabled: boolean): StartUpSignals {
  let received: StopSignal | undefined;
  let arrive: (signal: StopSignal) => void = () => {};
  const arrived = new Promise<StopSignal>((resolve) => (arrive = resolve));
  const onInt = () => take('SIGINT');
  const onTerm = () => take('SIGTERM');
  const end = () => {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
  };
  const take = (signal: StopSignal) => {
    end();
    received = signal;
    arrive(signal);
  };
  if (enabled) {
    process.once('SIGINT', onInt);
    process.once('SIGTERM', onTerm);
  }
  return {
    get received() {
      return received;
    },
    arrived,
    end,
  };
}
