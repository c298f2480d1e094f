import { setFlagsFromString } from 'node:v8';

/**
 * V8 flags the `keel` command, `npm start` and the benchmarks run under.
 *
 * `--no-allocation-site-pretenuring`: by default V8 decides, per object or array literal, to
 * allocate all later objects of that literal in the old generation once a few of them survive a
 * young collection. A run's first decimals, order views and events wait long enough to trigger
 * it, so millions of short-lived objects then go to the old generation and are freed only by full
 * collections. Without it the SMA and BBO benchmarks take ~8-10 % less CPU (session 28, same
 * machine, interleaved runs). Process-wide: a program that calls `runBacktest` as a library sets
 * it on its own `node` command line (or calls {@link applyKeelV8Flags} first).
 */
export const KEEL_V8_FLAGS: readonly string[] = ['--no-allocation-site-pretenuring'];

/**
 * Sets {@link KEEL_V8_FLAGS} in this process. Call it first, before the run allocates: V8 reads
 * the flag at each young collection, so objects made before the call keep any decision taken.
 */
export function applyKeelV8Flags(): void {
  for (const flag of KEEL_V8_FLAGS) setFlagsFromString(flag);
}
