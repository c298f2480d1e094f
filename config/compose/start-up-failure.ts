/**
 * What `/readyz` says of a start-up that failed, as a live or paper session and `keel record` say
 * it while they close what they opened.
 * @param who - what failed to start, e.g. `the live session` or `keel record`
 * @param what - what failed, as the log says it
 * @param error - why
 * @returns e.g. `the live session failed to start: cannot start on the venue at ...: ... (401 ...)`
 */
export function startUpFailure(who: string, what: string, error: unknown): string {
  const why = error instanceof Error ? error.message : String(error);
  return `${who} failed to start: ${why === what ? what : `${what} (${why})`}`;
}
