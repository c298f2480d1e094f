import type { Kernel, KernelState } from '../../core/kernel/index.ts';
import { realTimer, type TimerPort } from '../../core/venue/index.ts';

/**
 * Whether a position close the strategies sent is still under way by the stopped kernel's record:
 * in flight (its order not seen yet, nor refused), or its order seen and still open (its fill not
 * reported yet).
 * @param state - the stopped kernel's state, which still folds User Data
 * @returns true while a close's order or fill may still arrive
 */
export function closeUnderWay(state: KernelState): boolean {
  if (!state.closes.idle) return true;
  for (const order of state.orders.open.values()) if (order.closeRef !== undefined) return true;
  return false;
}

/**
 * Waits until the position closes the strategies sent (from `onStop` too) are answered and their
 * fills reported ({@link closeUnderWay}), or `timeoutMs` passed: the venue sends a close's order and
 * fill after its reply to the close, and the session's final equity, positions and fills must
 * hold them. Only what the stopped kernel folds can end a close, so the state is read after each
 * fold ({@link Kernel.foldedAfterStop}), not on a timer: the wait ends at the fold that settles
 * the last close.
 * @param kernel - the stopped kernel: its state and what it folds
 * @param timeoutMs - how long to wait at most
 * @param timer - arms the bound; the wall clock by default
 * @returns when no close is under way or the time is up
 */
export function awaitClosesOnStop(
  kernel: Pick<Kernel, 'state' | 'foldedAfterStop'>,
  timeoutMs: number,
  timer: TimerPort = realTimer(),
): Promise<void> {
  if (!closeUnderWay(kernel.state)) return Promise.resolve();
  return new Promise((resolve) => {
    const end = (): void => {
      folds.unsubscribe();
      cancelBound();
      resolve();
    };
    const folds = kernel.foldedAfterStop.subscribe(() => {
      if (!closeUnderWay(kernel.state)) end();
    });
    const cancelBound = timer.setTimer(end, timeoutMs);
  });
}
