/**
 * Waits until a condition holds, polling on the event loop (for loopback I/O in venue tests; no
 * assertion is ever made on how long it took).
 * @param condition - checked after each turn
 * @param what - named in the failure
 * @param turns - most polls before failing (each ~2 ms)
 * @returns when the condition holds
 * @throws Error when it never does
 */
export async function waitFor(condition: () => boolean, what: string, turns = 2_500): Promise<void> {
  for (let i = 0; i < turns; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * Moves a fake timer forward in steps until a condition holds, letting loopback I/O run between
 * steps (timers the client sets after an I/O reply are then reached too).
 * @param timer - the fake timer
 * @param condition - checked between steps
 * @param what - named in the failure
 * @param stepMs - fake time per step
 * @param steps - most steps
 * @returns when the condition holds
 * @throws Error when it never does
 */
export async function advanceUntil(
  timer: { advance(ms: number): Promise<void> },
  condition: () => boolean,
  what: string,
  stepMs = 50,
  steps = 400,
): Promise<void> {
  for (let i = 0; i < steps; i++) {
    if (condition()) return;
    await timer.advance(stepMs);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error(`timed out advancing the fake timer until ${what}`);
}
