import type { Logger } from 'pino';
import { monotonicOf, type TimerPort } from '../timer-port.ts';

/** How often the repeats of logged problems are summarized, ms (Keel's choice). */
export const PROBLEM_SUMMARY_INTERVAL_MS = 60_000;

/**
 * Distinct kinds of problem logged one by one (Keel's choice): a venue whose problems name a value
 * that changes every frame would otherwise log every frame; the kinds beyond are counted together.
 */
const MAX_DISTINCT_PROBLEMS = 64;

/** The key the kinds of problem beyond {@link MAX_DISTINCT_PROBLEMS} are counted under. */
const OTHER_PROBLEMS = '(other problems)';

/** An entry index in a problem's path, e.g. the `[17]` of `Orders channel data[17]: …`. */
const ENTRY_INDEX = /\[\d+\]/g;

/**
 * The value a problem names, at its end: the `, got 100.5` of a decoder's "must be a decimal
 * string, got 100.5", or a parser's detail in brackets (`is not JSON (Unexpected token … at
 * position 12)`).
 */
const NAMED_VALUE = /, got .*$|\s*\([^()]*\)$/s;

/**
 * The kind of a problem: its text with entry indexes and the value it names stripped, so one bad
 * field in every entry of a 100-entry batch, or a price sent as a number on every BBO, is one
 * kind, not one per entry or value that crowd out the next new kind.
 * @param problem - what was wrong, as the decoder said
 * @returns the key the problem is logged and counted under
 */
function problemKind(problem: string): string {
  return problem.replace(ENTRY_INDEX, '[]').replace(NAMED_VALUE, '');
}

/**
 * A warning about inbound traffic Keel could not use (a malformed frame, an unexpected one), kept
 * to a bounded volume: a venue that sends one bad field on every BBO would otherwise write a line
 * per frame (183 MB a day at 10 frames/s). The first occurrence of each kind of problem (its text
 * without entry indexes or the value it names) is logged as it comes, with its text as an example; its repeats are
 * counted and logged as one summary with the count per kind, {@link PROBLEM_SUMMARY_INTERVAL_MS}
 * after the first repeat counted (a timer on the client's timer port), or at
 * {@link RepeatedProblemLog.flush} (when the client closes). The client's counters still count
 * every frame.
 */
export class RepeatedProblemLog {
  private readonly logged = new Set<string>();
  private repeats = new Map<string, number>();
  /** When the first repeat since the last summary came, on the timer's monotonic reading. */
  private repeatsSince: number | undefined;
  private cancelSummary: () => void = () => {};

  /**
   * @param logger - where the warnings go
   * @param timer - the client's time and timers: the summary is due one interval after the first repeat
   * @param message - the warning's message, e.g. `malformed market-data frame`
   * @param intervalMs - the time from the first repeat counted to its summary
   */
  constructor(
    private readonly logger: Logger,
    private readonly timer: TimerPort,
    private readonly message: string,
    private readonly intervalMs = PROBLEM_SUMMARY_INTERVAL_MS,
  ) {}

  /**
   * Reports one occurrence of a problem: logged if it is the first of its kind, else counted.
   * @param problem - what was wrong, as the decoder said
   */
  report(problem: string): void {
    const kind = problemKind(problem);
    const key = this.logged.has(kind) || this.logged.size < MAX_DISTINCT_PROBLEMS ? kind : OTHER_PROBLEMS;
    if (!this.logged.has(key)) {
      this.logged.add(key);
      this.logger.warn(
        { problem },
        `${this.message} (repeats are summarized every ${this.intervalMs / 1000} s)`,
      );
      return;
    }
    if (this.repeatsSince === undefined) {
      this.repeatsSince = monotonicOf(this.timer);
      this.cancelSummary = this.timer.setTimer(() => this.flush(), this.intervalMs);
    }
    this.repeats.set(key, (this.repeats.get(key) ?? 0) + 1);
  }

  /** Logs the repeats counted since the last summary, if any, and cancels the pending summary. */
  flush(): void {
    this.cancelSummary();
    this.cancelSummary = () => {};
    if (this.repeatsSince === undefined) return;
    let total = 0;
    for (const count of this.repeats.values()) total += count;
    this.logger.warn(
      { repeats: Object.fromEntries(this.repeats), sinceMs: monotonicOf(this.timer) - this.repeatsSince },
      `${this.message}: ${total} more of the problems logged before`,
    );
    this.repeats = new Map();
    this.repeatsSince = undefined;
  }
}
