import { forceStopOnSecondSignal, STOP_SIGNALS, type StopSignal } from './session-stop.ts';

export type { StopSignal } from './session-stop.ts';

/**
 * A SIGINT, SIGTERM or SIGHUP that arrived while a session was logging in and reconciling, before its
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

/** The SIGINT / SIGTERM / SIGHUP handlers a session holds while it starts. */
export interface StartUpSignals {
  /** The first signal received, if any. */
  readonly received: StopSignal | undefined;
  /** Resolves with the first signal (never when the session handles no signals). */
  readonly arrived: Promise<StopSignal>;
  /** Removes the handlers (the session's stop handlers take over). */
  end(): void;
}

/**
 * Holds SIGINT, SIGTERM and SIGHUP from the moment a session begins, so a signal during its
 * start-up (login, reconciliation, onStart, warm-up) stops it gracefully instead of Node's default
 * handler killing the process with its run locks and without a word. The first signal is taken:
 * the caller says what it does with it. With `onSecond`, a second one until {@link
 * StartUpSignals.end} (the session's own handlers take over) ends the process at once, as during a
 * shutdown (see `forceStopOnSecondSignal`); without it (`keel sweep`), Node's default handler does.
 * @param enabled - false when the session handles no signals (tests): nothing is installed
 * @param onSecond - says what a second signal loses, before the process exits
 * @param exit - ends the process on a second signal (injected in tests)
 * @returns the signal received so far, a promise of it, and the way to remove the handlers
 */
export function watchStartUpSignals(
  enabled: boolean,
  onSecond?: (signal: StopSignal) => void,
  exit?: Parameters<typeof forceStopOnSecondSignal>[1],
): StartUpSignals {
  let received: StopSignal | undefined;
  let arrive: (signal: StopSignal) => void = () => {};
  const arrived = new Promise<StopSignal>((resolve) => (arrive = resolve));
  const handlers = new Map(STOP_SIGNALS.map((signal) => [signal, () => take(signal)]));
  let endForcing: () => void = () => {};
  const removeFirst = () => {
    for (const [signal, handler] of handlers) process.off(signal, handler);
  };
  const end = () => {
    removeFirst();
    endForcing();
  };
  const take = (signal: StopSignal) => {
    removeFirst();
    if (onSecond !== undefined) endForcing = forceStopOnSecondSignal(onSecond, exit);
    received = signal;
    arrive(signal);
  };
  if (enabled) for (const [signal, handler] of handlers) process.once(signal, handler);
  return {
    get received() {
      return received;
    },
    arrived,
    end,
  };
}
