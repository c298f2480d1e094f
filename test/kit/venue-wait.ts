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
