import { seededRandom } from '../../core/kernel/index.ts';
import type { TimerPort } from '../../core/venue/index.ts';
import { type LatencyOptions, latencyLegSampler } from '../sim/index.ts';
import { type CommandName, IMMEDIATE_COMMANDS } from './command-table.ts';
import { DelayLine } from './delay-line.ts';
import type { FeedPacing, SettleOutcome } from './market-feed.ts';

/** What the venue's latency needs to know. */
export interface VenueLatencyOptions {
  /** The configured latency; undefined = none (commands run at once, pushes leave at once). */
  readonly latency: LatencyOptions | undefined;
  /** Seeds the order-entry jitter. */
  readonly seed: number;
  readonly pacing: FeedPacing;
  /** Lockstep: wall ms beyond its delay after which a waiting entry runs anyway. */
  readonly lockstepStallMs: number;
  readonly timer: TimerPort;
  /**
   * Lockstep: entries ran at the stall bound (`lockstepStallMs`), the client having left the
   * venue's time short of them: told which line and how many.
   */
  readonly stalled?: (stall: LockstepStall) => void;
  /** The venue's time, ms: the last released event's, or a delayed command's arrival when later. */
  now(): number;
}

/** Commands or pushes a lockstep venue ran at its stall bound rather than at their time. */
export interface LockstepStall {
  /** The order-entry line (commands) or a connection's User Data line (pushes). */
  readonly line: 'orderEntry' | 'userData';
  /** How many entries ran. */
  readonly entries: number;
  /** Stall-bound expiries so far, this one included. */
  readonly count: number;
}

/**
 * The paper venue's latency: the order-entry line every command waits on, and one User Data line
 * per private connection (see {@link DelayLine} for when their entries run).
 *
 * Delays count from the venue's time. In realtime pacing that time also runs between events, at
 * the feed's speed from the last release: a command that comes in 150 ms after the last event
 * arrives 150 ms + its delay after that event, not its delay alone.
 */
export class VenueLatency {
  private readonly orderEntry: DelayLine;
  private readonly pushLines = new Set<DelayLine>();
  private readonly nextDelay: () => number;
  private readonly wallWait: ((venueMs: number) => number) | undefined;
  /** The last released event's time and the wall time of its release (realtime clock). */
  private lastRelease: { readonly ts: number; readonly wall: number } | undefined;
  private readonly clock: () => number;
  private readonly running: () => number;
  /**
   * Lockstep: the venue's time when the client said it holds commands (`held` ack), until its
   * next plain ack: what it sends meanwhile was made then (see {@link VenueLatency.clientHolds}).
   */
  private heldSince: number | undefined;
  /** Lockstep: how many times the stall bound ran entries (see {@link VenueLatency.stalls}). */
  private stallCount = 0;

  /**
   * @param options - latency, seed, pacing, clocks
   * @throws RangeError when the order-entry leg is negative
   */
  constructor(private readonly options: VenueLatencyOptions) {
    const { pacing, latency } = options;
    // Realtime pacing gives delays a wall-clock deadline at the pace of the feed; lockstep one for
    // a stalled client only; manual and asap none (the feed's end flushes them).
    this.wallWait =
      pacing.mode === 'realtime'
        ? (venueMs) => venueMs / (pacing.speed ?? 1)
        : pacing.mode === 'lockstep'
          ? (venueMs) => venueMs + options.lockstepStallMs
          : undefined;
    const speed = pacing.mode === 'realtime' ? (pacing.speed ?? 1) : undefined;
    this.running =
      speed === undefined
        ? options.now
        : () => {
            const last = this.lastRelease;
            if (last === undefined) return options.now();
            // Whole milliseconds keep venue times integral, like the sim's.
            return last.ts + Math.floor((options.timer.now() - last.wall) * speed);
          };
    this.clock = speed === undefined ? options.now : () => Math.max(options.now(), this.running());
    this.orderEntry = new DelayLine(this.clock, options.timer, this.wallWait, this.stallReport('orderEntry'));
    // A stream of its own (not the sims' User Data draws), still from the configured seed.
    this.nextDelay =
      latency === undefined
        ? () => 0
        : latencyLegSampler(
            latency.orderEntry,
            seededRandom((options.seed ^ 0x5bd1e995) >>> 0),
            'paper venue latency.orderEntry',
          );
  }

  /**
   * The venue's time as its delays count it: in realtime pacing the last released event's time
   * plus the wall time since its release times the speed (never before the venue's clock); else
   * the venue's clock.
   * @returns epoch ms, venue time
   */
  now(): number {
    return this.clock();
  }

  /**
   * The replay's running time alone: in realtime pacing the last released event's time plus the
   * wall time since its release times the speed, which runs on while {@link VenueLatency.now}
   * stands still at the venue's clock (a command's arrival ahead of an event the feed released
   * late); else the venue's clock.
   * @returns epoch ms, venue time
   */
  runningNow(): number {
    return this.running();
  }

  /** Whether a market event was released (a restart's replay included): the replay's clock runs from then on. */
  get started(): boolean {
    return this.lastRelease !== undefined;
  }

  /**
   * Lockstep: how many times a command or push ran at the stall bound, the client's acks having
   * left the venue's time short of it for `lockstepStallMs` of wall time (a client that stopped
   * acknowledging, or one whose acks never let the venue reach what it waits for). Always 0 in
   * other pacings, whose wall-clock deadlines are the latency itself.
   */
  get stalls(): number {
    return this.stallCount;
  }

  private stallReport(line: LockstepStall['line']): ((entries: number) => void) | undefined {
    if (this.options.pacing.mode !== 'lockstep') return undefined;
    return (entries) => {
      this.stallCount++;
      this.options.stalled?.({ line, entries, count: this.stallCount });
    };
  }

  /** @returns how many commands are on their way to the matching engine */
  get inFlight(): number {
    return this.orderEntry.pending;
  }

  /**
   * Runs `work` once a command sent now reaches the matching engine: at once without a latency
   * (or for a broker setting), else after a drawn order-entry delay, in the order commands came.
   * @param name - the command
   * @param work - called with the arrival (venue ms), or undefined when the command was not delayed
   */
  afterOrderEntry(name: CommandName, work: (arrival: number | undefined) => void): void {
    if (this.options.latency === undefined || IMMEDIATE_COMMANDS.has(name)) work(undefined);
    else this.orderEntry.enter((this.heldSince ?? this.clock()) + this.nextDelay(), work);
  }

  /**
   * Lockstep: whether the client's latest ack said it holds commands behind unanswered ones on
   * their sym. From the first such ack to the next plain one, the commands it sends count as
   * sent at the venue's time of that first ack, when it made the held ones: a command held behind
   * a close reaches the matching engine its delay after the close was sent, right behind it, as
   * in a backtest, not its delay after the close was answered (Keel's limit: a command the client
   * makes meanwhile in reaction to the close's answer counts as sent then too).
   * @param holds - true for a `held` ack, false for a plain one
   */
  clientHolds(holds: boolean): void {
    this.heldSince = holds ? (this.heldSince ?? this.clock()) : undefined;
  }

  /**
   * Lockstep, for a client holding commands: runs the commands on their way due by `before` (the
   * next event's time), up to the first of them and those due with it (see `FeedSettle`).
   * @param before - the next event's time, venue ms
   * @returns what came of it
   */
  settleBefore(before: number): SettleOutcome {
    const due = this.orderEntry.nextDue;
    if (due === undefined) return 'none';
    if (due > before) return 'later';
    this.runDueBy(due);
    return 'ran';
  }

  /**
   * @returns the due time of the first command or push waiting (venue ms), or undefined when
   *   none waits
   */
  nextDue(): number | undefined {
    let due = this.orderEntry.nextDue;
    for (const line of this.pushLines) {
      const next = line.nextDue;
      if (next !== undefined && (due === undefined || next < due)) due = next;
    }
    return due;
  }

  /** @returns a new line for one connection's User Data pushes */
  openPushLine(): DelayLine {
    const line = new DelayLine(this.clock, this.options.timer, this.wallWait, this.stallReport('userData'));
    this.pushLines.add(line);
    return line;
  }

  /**
   * Drops a closed connection's line and whatever still waits on it.
   * @param line - the line
   */
  closePushLine(line: DelayLine): void {
    line.clear();
    this.pushLines.delete(line);
  }

  /**
   * Runs the commands and pushes due by a market event's time, before the venue releases it.
   * @param ts - the event's time
   */
  beforeEvent(ts: number): void {
    this.lastRelease = { ts, wall: this.options.timer.now() };
    this.runDueBy(ts);
  }

  /**
   * Runs the commands and pushes due by a time the venue moves to without a market event (a
   * session's timer in realtime pacing), leaving the replay's running clock as it is.
   * @param ts - the time, no later than {@link VenueLatency.now}
   */
  runDueBy(ts: number): void {
    this.orderEntry.advance(ts);
    for (const line of this.pushLines) line.advance(ts);
  }

  /** The feed ended: the venue's time stops, so everything waiting comes due (realtime keeps its wall deadlines). */
  feedEnded(): void {
    if (this.options.pacing.mode === 'realtime') return;
    this.orderEntry.flush();
    for (const line of this.pushLines) line.flush();
  }

  /** The venue closes: commands already on their way reach the matching engine first. */
  closing(): void {
    this.orderEntry.flush();
  }
}
