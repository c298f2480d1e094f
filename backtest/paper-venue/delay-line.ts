import type { TimerPort } from '../../core/venue/index.ts';

interface Entry {
  readonly due: number;
  readonly work: (due: number) => void;
  cancelTimer: (() => void) | undefined;
}

/**
 * Holds work until the venue's time reaches the moment it is due: how the paper venue applies the
 * configured latency (order entry on the way in, User Data pushes on the way out).
 *
 * Entries leave in the order they entered. A due time earlier than the previous entry's is raised
 * to it, the simulated venue's rule for one connection (arrivals never go backwards), so jitter
 * never reorders. Work runs:
 * - when the venue is about to release a market event at or after its due time (`advance`), so
 *   that event is processed after it and every earlier one before it, as in a backtest;
 * - at the latest at its wall-clock deadline (the injected timer), when the pacing gives one:
 *   in realtime `(due - venue time) / speed`, so a quiet market does not hold a command back
 *   longer than its latency; in lockstep a generous stall deadline, for a client that stopped
 *   acknowledging events;
 * - when the feed ends or the venue closes (`flush`).
 *
 * Manual pacing has no wall-clock deadline: the venue's time moves only with the events.
 */
export class DelayLine {
  private readonly queue: Entry[] = [];
  private lastDue = Number.NEGATIVE_INFINITY;

  /**
   * @param now - the venue's current time (virtual ms)
   * @param timer - wall-clock timers for the deadlines
   * @param wallWait - the wall-clock deadline (ms) of an entry due this many venue ms from now;
   *   undefined = none
   * @param deadlineRan - told how many entries ran because a wall-clock deadline fired, not
   *   because the venue's time reached them
   */
  constructor(
    private readonly now: () => number,
    private readonly timer: TimerPort,
    private readonly wallWait: ((venueMs: number) => number) | undefined,
    private readonly deadlineRan: (entries: number) => void = () => undefined,
  ) {}

  /** @returns how many entries wait */
  get pending(): number {
    return this.queue.length;
  }

  /** @returns the due time of the first entry waiting (venue ms), or undefined when none waits */
  get nextDue(): number | undefined {
    return this.queue[0]?.due;
  }

  /**
   * Adds work due at a venue time. It runs at once (synchronously) when nothing waits and the
   * venue's time has already reached it: zero latency changes nothing.
   * @param due - venue time, ms
   * @param work - called with the due time (raised to the previous entry's when earlier)
   */
  enter(due: number, work: (due: number) => void): void {
    const at = Math.max(due, this.lastDue);
    this.lastDue = at;
    if (this.queue.length === 0 && at <= this.now()) {
      work(at);
      return;
    }
    const entry: Entry = { due: at, work, cancelTimer: undefined };
    this.queue.push(entry);
    if (this.wallWait !== undefined) {
      const wait = Math.max(0, this.wallWait(Math.max(0, at - this.now())));
      entry.cancelTimer = this.timer.setTimer(() => this.runThrough(entry), wait);
    }
  }

  /**
   * Runs every entry due at or before a venue time, in order (before the venue releases a market
   * event of that time).
   * @param ts - the venue time about to be reached
   */
  advance(ts: number): void {
    while (this.queue.length > 0 && (this.queue[0] as Entry).due <= ts) this.runHead();
  }

  /** Runs every waiting entry, in order (the feed ended, or the venue closes). */
  flush(): void {
    while (this.queue.length > 0) this.runHead();
  }

  /** Drops every waiting entry without running it (its connection closed). */
  clear(): void {
    for (const entry of this.queue.splice(0)) entry.cancelTimer?.();
  }

  /** A wall-clock deadline fired: this entry and every one before it run, keeping the order. */
  private runThrough(entry: Entry): void {
    const index = this.queue.indexOf(entry);
    for (let i = 0; i <= index; i++) this.runHead();
    if (index >= 0) this.deadlineRan(index + 1);
  }

  private runHead(): void {
    const entry = this.queue.shift() as Entry;
    entry.cancelTimer?.();
    entry.work(entry.due);
  }
}
