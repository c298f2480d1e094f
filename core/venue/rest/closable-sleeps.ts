import type { TimerPort } from '../timer-port.ts';

/**
 * A client's timed waits (a REST retry's backoff, an endpoint's hold), each on the client's timer
 * and each ended, refused, when the client closes: their timers are cancelled, so none keeps the
 * process alive after the close, and none fires early (a wait that ended as if its time were up
 * would let its caller loop at once).
 */
export class ClosableSleeps {
  /** The waits under way: each one's timer cancel -> its refusal. */
  private readonly open = new Map<() => void, (reason: unknown) => void>();
  private reason: { readonly error: unknown } | undefined;

  /** @param timer - the timer the waits run on */
  constructor(private readonly timer: Pick<TimerPort, 'setTimer'>) {}

  /** Whether {@link close} was called. */
  get closed(): boolean {
    return this.reason !== undefined;
  }

  /**
   * @param ms - how long to wait
   * @returns when the time is up
   * @throws the close's reason when closed before (then at once, on no timer) or meanwhile
   */
  sleep(ms: number): Promise<void> {
    const reason = this.reason;
    if (reason !== undefined) return Promise.reject(reason.error);
    return new Promise<void>((resolve, reject) => {
      const cancel = this.timer.setTimer(() => {
        this.open.delete(cancel);
        resolve();
      }, ms);
      this.open.set(cancel, reject);
    });
  }

  /**
   * Ends every wait under way, refused with `reason`, its timer cancelled; a wait asked for
   * afterwards is refused at once. A second close keeps the first reason.
   * @param reason - what the waits are refused with
   */
  close(reason: unknown): void {
    if (this.reason !== undefined) return;
    this.reason = { error: reason };
    for (const [cancel, reject] of this.open) {
      cancel();
      reject(reason);
    }
    this.open.clear();
  }
}
