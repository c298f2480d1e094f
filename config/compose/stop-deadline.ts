import { monotonicNow } from '../../core/kernel/index.ts';
import { MAX_TIMER_MS } from './timer-limit.ts';

/**
 * The one deadline a stopping live or paper session's steps share: `shutdown.timeoutMs` from the
 * stop. The cancels (and the wait for commands in flight) come first and may take all of it;
 * each later step that waits on the venue (its statement, the legs of filled orders, the algo
 * orders still open) gets what is left, and one the deadline cuts short is named in the result's
 * warnings. A venue that stopped answering so holds the stop up for `shutdown.timeoutMs`, not
 * for each step's own timeout and retries in turn.
 */
export class StopDeadline {
  /** Aborted when the deadline passes, its reason the sentence {@link StopDeadline.reason} gives. */
  readonly signal: AbortSignal;
  private readonly at: number;
  private readonly unfinished: string[] = [];

  /**
   * Starts the deadline now.
   * @param timeoutMs - `shutdown.timeoutMs`
   * @param now - a clock that does not step, ms (only differences are read): a wall-clock step
   *   during the stop neither cuts the steps short nor lets them outlast the deadline
   */
  constructor(
    readonly timeoutMs: number,
    private readonly now: () => number = monotonicNow,
  ) {
    this.at = now() + timeoutMs;
    const controller = new AbortController();
    this.signal = controller.signal;
    // Unreferenced: a stop that ends before its deadline does not wait for it. Node fires a
    // timer longer than 2^31 - 1 ms at once: such a deadline is never reached in practice.
    if (timeoutMs <= MAX_TIMER_MS)
      setTimeout(() => controller.abort(new Error(this.reason())), timeoutMs).unref();
  }

  /**
   * @param extraMs - time granted past the deadline
   * @returns how much of the deadline is left, ms (0 once it passed), plus `extraMs`: a delay a
   *   timer can wait (at most 2^31 - 1 ms)
   */
  left(extraMs = 0): number {
    // Once the timer has fired the deadline has passed, though Node fires a timer up to a
    // millisecond before the monotonic clock reaches it: the abort, not the clock, says so then.
    const remaining = this.signal.aborted ? 0 : Math.max(0, this.at - this.now());
    return Math.min(MAX_TIMER_MS, remaining + extraMs);
  }

  /** @returns why a step cut short did not finish, for the warnings that name it */
  reason(): string {
    return `the stop's shutdown.timeoutMs of ${this.timeoutMs} ms ran out first`;
  }

  /**
   * Waits for a step until the deadline at most; a step it cuts short is noted for
   * {@link StopDeadline.warning} and goes on unwaited (its late outcome is not the result's).
   * @param what - the step, as the warning names it
   * @param work - the step under way; undefined when it has nothing to do
   * @returns true when it finished in time
   * @throws what the step threw in time
   */
  async within(what: string, work: Promise<unknown> | undefined): Promise<boolean> {
    if (work === undefined) return true;
    const signal = this.signal;
    const finished =
      !signal.aborted &&
      (await new Promise<boolean>((resolve, reject) => {
        const cut = () => resolve(false);
        signal.addEventListener('abort', cut, { once: true });
        work.then(
          () => {
            signal.removeEventListener('abort', cut);
            resolve(true);
          },
          (error: unknown) => {
            signal.removeEventListener('abort', cut);
            reject(error);
          },
        );
      }));
    if (!finished) {
      // Its failure after the deadline changes nothing written: not an unhandled rejection.
      work.catch(() => {});
      this.unfinished.push(what);
    }
    return finished;
  }

  /** @returns the warning naming the steps the deadline cut short, or undefined when none was */
  warning(): string | undefined {
    if (this.unfinished.length === 0) return undefined;
    return `shutdown.timeoutMs (${this.timeoutMs} ms) ran out before ${this.unfinished.join(', ')} finished: the venue did not answer in time, and the result holds what was known by then`;
  }
}
