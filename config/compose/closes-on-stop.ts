import type { KernelState } from '../../core/kernel/index.ts';
import type { StopClock } from './cancel-on-stop.ts';

const POLL_MS = 50;

const WALL: StopClock = { now: () => Date.now(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) };

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
 * hold them.
 * @param state - the stopped kernel's state
 * @param timeoutMs - how long to wait at most
 * @param clock - the wall clock by default
 * @returns when no close is under way or the time is up
 */
export async function awaitClosesOnStop(
  state: KernelState,
  timeoutMs: number,
  clock: StopClock = WALL,
): Promise<void> {
  const deadline = clock.now() + timeoutMs;
  while (closeUnderWay(state) && clock.now() < deadline) await clock.sleep(POLL_MS);
}
