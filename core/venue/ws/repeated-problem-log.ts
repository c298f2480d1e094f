import type { Logger } from 'pino';

/** How often the repeats of logged problems are summarized, ms (Keel's choice). */
export const PROBLEM_SUMMARY_INTERVAL_MS = 60_000;

/**
 * Distinct problems logged one by one (Keel's choice): a venue whose problems name a value that
 * changes every frame would otherwise log every frame; the problems beyond are counted together.
 */
const MAX_DISTINCT_PROBLEMS = 64;

/** The key the problems beyond {@link MAX_DISTINCT_PROBLEMS} are counted under. */
const OTHER_PROBLEMS = '(other problems)';

/**
 * A warning about inbound traffic Keel could not use (a malformed frame, an unexpected one), kept
 * to a bounded volume: a venue that sends one bad field on every BBO would otherwise write a line
 * per frame (183 MB a day at 10 frames/s). The first occurrence of each problem is logged as it
 * comes; its repeats are counted and logged as one summary with the count per problem, at the
 * first report at least {@link PROBLEM_SUMMARY_INTERVAL_MS} after the first repeat counted, or at
 * {@link RepeatedProblemLog.flush} (when the client closes). The client's counters still count
 * every frame. Time comes from the client's clock port.
 */
export class RepeatedProblemLog {
  private readonly logged = new Set<string>();
  private repeats = new Map<string, number>();
  private repeatsSince: number | undefined;

  /**
   * @param logger - where the warnings go
   * @param now - the client's clock, epoch ms
   * @param message - the warning's message, e.g. `malformed market-data frame`
   * @param intervalMs - the least time between two summaries
   */
  constructor(
    private readonly logger: Logger,
    private readonly now: () => number,
    private readonly message: string,
    private readonly intervalMs = PROBLEM_SUMMARY_INTERVAL_MS,
  ) {}

  /**
   * Reports one occurrence of a problem: logged if it is the problem's first, else counted.
   * @param problem - what was wrong, as the decoder said
   */
  report(problem: string): void {
    const now = this.now();
    if (this.repeatsSince !== undefined && now - this.repeatsSince >= this.intervalMs) this.flush();
    const key =
      this.logged.has(problem) || this.logged.size < MAX_DISTINCT_PROBLEMS ? problem : OTHER_PROBLEMS;
    if (!this.logged.has(key)) {
      this.logged.add(key);
      this.logger.warn(
        { problem },
        `${this.message} (repeats are summarized every ${this.intervalMs / 1000} s)`,
      );
      return;
    }
    this.repeatsSince ??= now;
    this.repeats.set(key, (this.repeats.get(key) ?? 0) + 1);
  }

  /** Logs the repeats counted since the last summary, if any. */
  flush(): void {
    if (this.repeatsSince === undefined) return;
    let total = 0;
    for (const count of this.repeats.values()) total += count;
    this.logger.warn(
      { repeats: Object.fromEntries(this.repeats), sinceMs: this.now() - this.repeatsSince },
      `${this.message}: ${total} more of the problems logged before`,
    );
    this.repeats = new Map();
    this.repeatsSince = undefined;
  }
}
