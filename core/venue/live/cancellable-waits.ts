import type { TimerPort } from '../timer-port.ts';

/** A wait under way: resolves when its time is up, or at once when woken. */
export interface CancellableWait {
  readonly done: Promise<void>;
  /** Ends the wait now (its timer cancelled, `done` resolved). */
  readonly wake: () => void;
}

/**
 * The waits of lookup loops between their lookups, on the client's timer: each can be woken early
 * (an answer made the loop moot), and all can be cancelled when the client stops, which leaves
 * their loops waiting for good unless they are woken. A timer left running would keep the process
 * alive after the stop, for nothing: the stopped client reports no answer.
 */
export class CancellableWaits {
  private readonly cancels = new Set<() => void>();
  private cancelled = false;

  /** @param timer - the timer the waits run on */
  constructor(private readonly timer: Pick<TimerPort, 'setTimer'>) {}

  /**
   * @param ms - how long to wait
   * @returns the wait
   */
  wait(ms: number): CancellableWait {
    let wake: () => void = () => undefined;
    const done = new Promise<void>((resolve) => {
      // A loop whose lookup was under way at the stop waits again once it fails: for good, on no timer.
      if (this.cancelled) {
        wake = resolve;
        return;
      }
      const cancel = this.timer.setTimer(() => {
        this.cancels.delete(cancel);
        resolve();
      }, ms);
      this.cancels.add(cancel);
      wake = () => {
        cancel();
        this.cancels.delete(cancel);
        resolve();
      };
    });
    return { done, wake };
  }

  /**
   * Cancels every wait's timer without resolving it (the client is stopping); a wait asked for
   * afterwards starts no timer and ends only when woken.
   */
  cancelAll(): void {
    this.cancelled = true;
    for (const cancel of this.cancels) cancel();
    this.cancels.clear();
  }
}
