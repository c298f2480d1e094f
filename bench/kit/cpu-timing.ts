/**
 * CPU seconds (user + system) this process has used so far: on a machine shared with others, a
 * steadier figure than wall time.
 * @returns the seconds
 */
export function cpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** What a timed run returned, with the wall-clock and CPU seconds it took. */
export interface Timed<T> {
  readonly value: T;
  readonly wall: number;
  readonly cpu: number;
}

/**
 * Runs once and times it.
 * @param run - the work to time
 * @returns its value, wall-clock and CPU seconds
 */
export async function timed<T>(run: () => Promise<T>): Promise<Timed<T>> {
  const wall = performance.now();
  const cpu = cpuSeconds();
  const value = await run();
  return { value, wall: (performance.now() - wall) / 1000, cpu: cpuSeconds() - cpu };
}

/**
 * Runs `rounds` times and keeps the best (lowest) wall-clock and CPU seconds, each on its own:
 * the run least disturbed by the rest of the machine.
 * @param rounds - how many runs (at least one)
 * @param run - the work to time
 * @returns the last run's value, the lowest wall-clock and the lowest CPU seconds
 */
export async function bestOf<T>(rounds: number, run: () => Promise<T>): Promise<Timed<T>> {
  let wall = Number.POSITIVE_INFINITY;
  let cpu = Number.POSITIVE_INFINITY;
  let value: T | undefined;
  for (let i = 0; i < rounds; i++) {
    const round = await timed(run);
    value = round.value;
    cpu = Math.min(cpu, round.cpu);
    wall = Math.min(wall, round.wall);
  }
  return { value: value as T, wall, cpu };
}
