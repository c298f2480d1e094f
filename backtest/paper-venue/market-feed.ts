import type { MarketEvent } from '../../core/model/index.ts';
import type { TimerPort } from '../../core/venue/index.ts';
import { decodeMarketMessage } from '../../core/venue/index.ts';
import { gapOfRecordMessage } from '../recording/index.ts';
import type { ClockReading } from './persistence.ts';

/** One market-data message: the venue's wire push (sent to subscribers) and its decoded event (fed to the sim). */
export interface FeedItem {
  readonly event: MarketEvent;
  readonly wire: Readonly<Record<string, unknown>>;
}

/** A restartable source of market data: each call starts from the beginning (replay after a restart). */
export type FeedSource = () => AsyncIterator<FeedItem>;

/**
 * A wire push as a feed item, decoded with the venue's decoders.
 * @param msg - the push
 * @param recvTs - its receive time, epoch ms
 * @returns the item; null for a push that is no market data (a recording's gap record included: the
 *   venue sends no such push); the decoder's error for one that does not decode
 */
export function decodeFeedItem(msg: unknown, recvTs: number): FeedItem | null | Error {
  const event = decodeMarketMessage(msg, recvTs);
  if (event instanceof Error) return gapOfRecordMessage(msg, recvTs) === undefined ? event : null;
  if (event === null) return event;
  return { event, wire: msg as Record<string, unknown> };
}

/**
 * A wire push as a feed item ({@link decodeFeedItem}), for scripted and generated pushes.
 * @param msg - the push
 * @param recvTs - its receive time, epoch ms
 * @returns the item, or undefined for a push that is no market data (or does not decode)
 */
export function feedItemOf(msg: unknown, recvTs: number): FeedItem | undefined {
  const item = decodeFeedItem(msg, recvTs);
  return item === null || item instanceof Error ? undefined : item;
}

/**
 * Market data from a list of wire pushes (tests, scripted scenarios).
 * @param pushes - each push with its receive time
 * @returns the source
 */
export function listFeed(pushes: readonly { readonly recvTs: number; readonly msg: unknown }[]): FeedSource {
  return async function* () {
    for (const push of pushes) {
      const item = feedItemOf(push.msg, push.recvTs);
      if (item) yield item;
    }
  };
}

/**
 * How the feed releases events. `asap`: as fast as possible; `realtime`: paced by the events'
 * receive times on the wall clock, scaled by `speed` (2 = twice as fast); `lockstep`: one event at
 * a time, the next only after the client acknowledged the previous (Keel's paper-venue extension);
 * `manual`: only when the owner calls `step` (tests).
 */
export type FeedPacing =
  | { readonly mode: 'asap' }
  | {
      readonly mode: 'realtime';
      readonly speed?: number;
      /**
       * The events are stamped on the wall clock (a feed generated live, as `syntheticFeed`): at
       * the first release, the ones already due go out at once and the rest are paced from there.
       * At a first start what is due is what the wall clock has reached, so the venue's clock
       * starts at the machine's; after a restart it is what the venue's clock reached, run on at
       * `speed` from its last saved reading through the downtime ({@link MarketFeed.resumeClock}).
       * Default: the replay starts at its first event, whatever its time (after a restart, at the
       * first event not released before it).
       */
      readonly eventsOnWallClock?: boolean;
    }
  | { readonly mode: 'lockstep' }
  | { readonly mode: 'manual' };

/** Where released events go: `replaying` is true while a restart catches up with the journal. */
export type FeedRelease = (item: FeedItem, seq: number, replaying: boolean) => void;

/**
 * Lockstep: moves the venue to a client's wake-up time (before the next event) and tells the
 * client, which fires its timers due by then and acknowledges the tick (Keel's extension).
 * @param at - the wake-up time, epoch ms (venue time)
 * @param tick - the tick's number, acknowledged with the ack's `tick`
 * @returns how many connections were told (0: nobody can acknowledge it)
 */
export type FeedTick = (at: number, tick: number) => number;

/** What a lockstep client says with an ack besides its seq (Keel's extension). */
export interface LockstepAckExtras {
  /** The client's earliest timer, epoch ms (venue time); null = none. Absent = unchanged. */
  readonly wakeAt?: number | null;
  /** The last tick the client handled. */
  readonly tick?: number;
  /**
   * The last settle round the client handled (`LOCKSTEP_SETTLE_EVENT`). Present (0 before the
   * first) = the client takes settle rounds, and the venue runs them before each event.
   */
  readonly settle?: number;
  /** Which client run's REST requests `restSent` counts (`REST_SEQ_HEADER`). */
  readonly restEpoch?: string;
  /** How many state-changing REST requests the client had sent when it acked. */
  readonly restSent?: number;
  /**
   * The client handled the event (or tick) but still holds commands it made then behind
   * unanswered ones on their sym, to send once those are answered: not an ack yet (see
   * {@link FeedSettle}). Absent or false = a plain ack.
   */
  readonly held?: boolean;
}

/**
 * What the venue's work before its next event came to, for a lockstep client holding commands
 * (`held` ack): `ran` = it moved its time to the next command on its way and ran it (the client,
 * answered, sends what it held and acknowledges again); `later` = every command on its way is due
 * after the next event, which comes first (as in a backtest); `none` = nothing on its way.
 */
export type SettleOutcome = 'ran' | 'later' | 'none';

/**
 * Lockstep: the client holds commands behind unanswered ones, and the venue's time moves only
 * with its acks: runs the commands on their way due by the next event's time (the first of them
 * and those due with it), so the client's held commands go out before that event, as in a backtest.
 * @param before - the next event's time (`Infinity` at the feed's end)
 * @returns what came of it
 */
export type FeedSettle = (before: number) => SettleOutcome;

/**
 * Lockstep, for a client that takes settle rounds (Keel's extension): how the venue settles what
 * the client's commands made before its next event, as a backtest has the strategies react to
 * their answers and fills (and the venue take what they send) before it sees the next event.
 */
export interface FeedSettleRounds {
  /**
   * Sends the client a settle frame when its private connection was sent frames (replies,
   * pushes) after the last lockstep frame the venue stamped: the client acknowledges it with
   * `settle` once it handled them and sent what they made it do.
   * @param round - the round's number
   * @returns true when the frame went out; false when there was nothing to settle or nobody to tell
   */
  frame(round: number): boolean;
  /**
   * With a latency: runs the commands and pushes due first on the venue's lines (all those due
   * at that instant) when that is by `before`, the venue's time moved there, so the client
   * reacts to them at their time, and what it sends arrives as it would in a backtest.
   * @param before - the time of the next event or tick
   * @returns true when it ran any
   */
  step(before: number): boolean;
}

/**
 * The most settle rounds the venue runs between two market events (Keel's choice): a
 * strategy whose every reaction makes another (a market order on each fill) would otherwise hold
 * the replay at one instant for good. Past it the event comes; the private frames still reach the
 * client before it (`privateSent`), and what the client sends then runs after it.
 */
export const LOCKSTEP_SETTLE_ROUNDS = 64;

/** Releases a source's events to the venue at the chosen pace; `released` counts them (seq 1, 2, ...). */
export class MarketFeed {
  /** Events released so far; the seq of the last one. */
  released = 0;
  /** Highest seq the client acknowledged (lockstep). */
  acked = -1;
  /** Lockstep ticks sent so far, and the last one the client handled. */
  private ticks = 0;
  private ackedTick = 0;
  /** The client's earliest timer as of its last ack (lockstep): a tick comes before any later event. */
  private wakeAt = Number.POSITIVE_INFINITY;
  /** Whether the client takes settle rounds (an ack of it said `settle`), the last round sent and the last it handled. */
  private takesSettles = false;
  private settleRounds = 0;
  private ackedSettle = 0;
  /** The client's last ack said it holds commands (lockstep): the venue settles before waiting on. */
  private heldAck = false;
  /** The next item, read ahead while a lockstep client held commands. */
  private peeked: IteratorResult<FeedItem> | undefined;
  /** Realtime: the time of the next event, read from the source and waiting for its wall time. */
  private upcoming: number | undefined;
  /** True once the source is exhausted (or failed). */
  ended = false;
  /** Why the source stopped early: a bad recording, an unreadable file. */
  failure: Error | undefined;
  private readonly iterator: AsyncIterator<FeedItem>;
  private allowance = 0;
  private stopped = false;
  private wake: (() => void) | undefined;
  /** A poke came while the release loop was not waiting: its next wait returns at once. */
  private poked = false;
  private waiters: { readonly seq: number; readonly resolve: () => void }[] = [];
  private readonly sleeping = new Set<() => void>();
  private running: Promise<void> | undefined;
  /** The server clock a restart resumes (see {@link MarketFeed.resumeClock}). */
  private resumed: ClockReading | undefined;

  /**
   * @param source - the market data
   * @param pacing - how fast events are released
   * @param timer - wall-clock timers (pacing only; virtual time is the events' time)
   * @param release - receives each event
   * @param onEnd - called once when the source is exhausted or fails after `start`
   * @param tick - lockstep: moves the venue to a client's wake-up time and tells the client; none
   *   = no ticks (a client's timers then fire at the next event it sees)
   * @param settle - lockstep: runs the commands due before the next event for a client that holds
   *   commands; none = such a client waits for the venue's stall bound
   * @param rounds - lockstep: settles what a client's commands made before the next event, for a
   *   client that takes settle rounds; none = the next event comes once the client acknowledged
   */
  constructor(
    source: FeedSource,
    private readonly pacing: FeedPacing,
    private readonly timer: TimerPort,
    private readonly release: FeedRelease,
    private readonly onEnd: () => void = () => undefined,
    private readonly tick?: FeedTick,
    private readonly settle?: FeedSettle,
    private readonly rounds?: FeedSettleRounds,
  ) {
    this.iterator = source();
  }

  /**
   * Releases the first `count` events silently (catching up after a restart).
   * @param count - events released before the restart
   * @param between - runs after each event with its seq (journal entries due then)
   */
  async catchUp(count: number, between: (seq: number) => void): Promise<void> {
    while (this.released < count) {
      const next = await this.iterator.next();
      if (next.done) {
        this.ended = true;
        return;
      }
      this.released++;
      this.release(next.value, this.released, true);
      between(this.released);
    }
  }

  /**
   * After a restart: the venue's server clock read `reading.venue` at wall time `reading.wall`
   * (its last saved snapshot). A realtime feed stamped on the wall clock (`eventsOnWallClock`)
   * takes that clock for having run on at its speed since, downtime included: at its first
   * release it releases at once the events due by then, and paces the rest from there, so a
   * restarted venue's clock is where it would be had it never stopped (at the speed it restarts
   * with). Other pacings and feeds resume at their next event.
   * @param reading - the clock's last saved reading
   */
  resumeClock(reading: ClockReading): void {
    this.resumed = reading;
  }

  /**
   * The venue time a feed resumed by {@link MarketFeed.resumeClock} is catching up with: its
   * resumed clock's reading now, until it has released what was due when it started again (the
   * downtime's events, which go out at once) and waits for the next event's time.
   * @returns epoch ms; undefined when it is not catching up (a first start, another feed or
   *   pacing, caught up, ended or stopped)
   */
  catchingUpTo(): number | undefined {
    const pacing = this.pacing;
    if (this.resumed === undefined || this.ended || this.stopped) return undefined;
    if (pacing.mode !== 'realtime' || pacing.eventsOnWallClock !== true) return undefined;
    return this.dueBy(this.timer.now(), pacing.speed ?? 1);
  }

  /**
   * The time of the next event not released yet, as far as the feed knows it: read from the
   * source and waiting for its time (realtime pacing), or read ahead (lockstep).
   * @returns its recvTs; `Infinity` once the source ended; undefined while the source has not
   *   given it yet (a slow source, or before the first event)
   */
  nextEventTs(): number | undefined {
    if (this.ended) return Number.POSITIVE_INFINITY;
    if (this.upcoming !== undefined) return this.upcoming;
    const peeked = this.peeked;
    if (peeked === undefined) return undefined;
    return peeked.done ? Number.POSITIVE_INFINITY : peeked.value.event.recvTs;
  }

  /** Starts releasing events at the chosen pace. */
  start(): void {
    this.running ??= this.run().catch((error: unknown) => {
      this.failure = error instanceof Error ? error : new Error(String(error));
      this.ended = true;
      this.settleWaiters();
      this.onEnd();
    });
  }

  /**
   * Lockstep: the client has processed every event up to `seq`; `0` says it is ready for the first.
   * @param seq - the last event processed
   * @param extras - the client's earliest timer and the last tick it handled (Keel's extension)
   */
  ack(seq: number, extras?: LockstepAckExtras): void {
    if (extras?.wakeAt !== undefined) this.wakeAt = extras.wakeAt ?? Number.POSITIVE_INFINITY;
    if (extras?.settle !== undefined) this.takesSettles = true;
    if (extras?.held === true) {
      this.heldAck = true;
      this.poke();
      return;
    }
    this.heldAck = false;
    this.acked = Math.max(this.acked, seq);
    if (extras?.tick !== undefined) this.ackedTick = Math.max(this.ackedTick, extras.tick);
    if (extras?.settle !== undefined) this.ackedSettle = Math.max(this.ackedSettle, extras.settle);
    this.poke();
  }

  /**
   * Manual pacing: releases `count` more events.
   * @param count - how many, default 1
   */
  step(count = 1): void {
    this.allowance += count;
    this.poke();
  }

  /**
   * Waits until `seq` events were released or the source ended (tests, lockstep clients).
   * @param seq - the event count to wait for
   * @returns once reached
   */
  until(seq: number): Promise<void> {
    if (this.released >= seq || this.ended || this.stopped) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ seq, resolve }));
  }

  private settleWaiters(): void {
    const done = this.ended || this.stopped;
    const due = this.waiters.filter((w) => done || this.released >= w.seq);
    this.waiters = this.waiters.filter((w) => !due.includes(w));
    for (const w of due) w.resolve();
  }

  /** Stops releasing (on close). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.poke();
    this.settleWaiters();
    for (const wakeUp of [...this.sleeping]) wakeUp();
    this.sleeping.clear();
    await this.running;
    await this.iterator.return?.();
  }

  /**
   * Wakes the release loop; kept for its next wait when it is not waiting (it may be reading the
   * source ahead, after a held ack): an ack arriving then would otherwise be lost, and the loop
   * would wait for another that never comes, the client having nothing more to acknowledge.
   */
  private poke(): void {
    const wake = this.wake;
    this.wake = undefined;
    if (wake === undefined) this.poked = true;
    else wake();
  }

  /** @returns once poked, at once when a poke came while the loop was not waiting */
  private waitForPoke(): Promise<void> {
    if (this.poked) {
      this.poked = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.wake = resolve;
    });
  }

  /** A pacing pause that `stop` cuts short, so closing never waits for a long gap between events. */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const cancel = this.timer.setTimer(() => {
        this.sleeping.delete(wakeUp);
        resolve();
      }, ms);
      const wakeUp = () => {
        cancel();
        resolve();
      };
      this.sleeping.add(wakeUp);
    });
  }

  /**
   * Lockstep, the client having acknowledged what was released: before releasing the next event
   * (at `ts`), settles what the client's commands made (see {@link FeedSettleRounds}: a settle
   * round, else one instant of the latency lines) and ticks to its timers due by then, in the
   * order of their times, as a backtest has the strategies react to their answers and fills, and
   * fires their timers, before the venue sees the next event. At most
   * {@link LOCKSTEP_SETTLE_ROUNDS} settle rounds per event.
   */
  private async beforeRelease(ts: number): Promise<void> {
    let rounds = 0;
    while (!this.stopped) {
      if (this.takesSettles && this.rounds !== undefined) {
        if (rounds < LOCKSTEP_SETTLE_ROUNDS && (await this.settleRound(ts))) {
          rounds++;
          continue;
        }
        if (this.rounds.step(this.tick === undefined ? ts : Math.min(ts, this.wakeAt))) continue;
      }
      if (this.tick === undefined || this.wakeAt > ts) return;
      await this.tickTo(ts);
    }
  }

  /**
   * Lockstep: sends a settle frame when there is something to settle, and waits for its ack.
   * @returns whether the frame went out
   */
  private async settleRound(ts: number): Promise<boolean> {
    const round = this.settleRounds + 1;
    if (this.rounds?.frame(round) !== true) return false;
    this.settleRounds = round;
    while (this.ackedSettle < round && !this.stopped)
      await this.clientTurn(
        async () => ts,
        () => {
          this.ackedSettle = Math.max(this.ackedSettle, round);
        },
      );
    return true;
  }

  /**
   * Lockstep: the client's earliest timer is due by the next event's time (`ts`): moves the venue
   * there, tells the client and waits for its ack, as a backtest fires a timer before the venue
   * sees the next event: what the timer sends reaches the venue before that event, at the
   * timer's time.
   */
  private async tickTo(ts: number): Promise<void> {
    const at = this.wakeAt;
    // Consumed: the tick's ack says when the client wakes next.
    this.wakeAt = Number.POSITIVE_INFINITY;
    const tick = ++this.ticks;
    if (this.tick?.(at, tick) === 0) this.ackedTick = tick;
    while (this.ackedTick < tick && !this.stopped)
      await this.clientTurn(
        async () => ts,
        () => {
          this.ackedTick = Math.max(this.ackedTick, tick);
        },
      );
  }

  /**
   * Lockstep: waits for the client's next ack; after an ack saying it holds commands, first lets
   * the venue run what is due before the next event (`settle`). When all that is on its way is
   * due after that event, the event comes first: the client's step counts as done (`done`).
   */
  private async clientTurn(nextTs: () => Promise<number>, done: () => void): Promise<void> {
    if (this.heldAck && this.settle !== undefined) {
      this.heldAck = false;
      const outcome = this.settle(await nextTs());
      if (outcome === 'later') done();
      if (outcome !== 'none') return;
    }
    await this.waitForPoke();
  }

  /** The next item of the source, the one read ahead first. */
  private async nextItem(): Promise<IteratorResult<FeedItem>> {
    const peeked = this.peeked;
    this.peeked = undefined;
    return peeked ?? (await this.iterator.next());
  }

  /** The time of the next item of the source, read ahead (`Infinity` at its end). */
  private async peekTs(): Promise<number> {
    this.peeked ??= await this.iterator.next();
    return this.peeked.done ? Number.POSITIVE_INFINITY : this.peeked.value.event.recvTs;
  }

  /**
   * A feed stamped on the wall clock: the venue time due at wall time `wall` when the feed starts
   * releasing, the wall clock's at a first start, the resumed clock run on at `speed` after a restart.
   */
  private dueBy(wall: number, speed: number): number {
    const resumed = this.resumed;
    // Whole milliseconds, as the replay's clock reads (the wall clock may not be whole ms when paced).
    return resumed === undefined ? wall : resumed.venue + Math.floor((wall - resumed.wall) * speed);
  }

  private async run(): Promise<void> {
    // Pace against one anchor (the first event's, or the wall clock's), not event to event: timer
    // granularity then never adds up to drift.
    let anchor: { readonly wall: number; readonly ts: number } | undefined;
    let sinceYield = 0;
    while (!this.stopped) {
      if (this.pacing.mode === 'manual') {
        while (this.allowance <= 0 && !this.stopped) await this.waitForPoke();
      } else if (this.pacing.mode === 'lockstep') {
        while (this.acked < this.released && !this.stopped)
          await this.clientTurn(
            () => this.peekTs(),
            () => {
              this.acked = Math.max(this.acked, this.released);
            },
          );
      }
      if (this.stopped) return;
      const next = await this.nextItem();
      if (next.done) {
        this.ended = true;
        this.settleWaiters();
        this.onEnd();
        return;
      }
      if (this.stopped) return;
      const ts = next.value.event.recvTs;
      this.upcoming = ts;
      if (this.pacing.mode === 'lockstep') await this.beforeRelease(ts);
      if (this.stopped) return;
      if (this.pacing.mode === 'realtime') {
        const wall = this.timer.now();
        const speed = this.pacing.speed ?? 1;
        anchor ??= {
          wall,
          ts: this.pacing.eventsOnWallClock === true ? Math.max(ts, this.dueBy(wall, speed)) : ts,
        };
        const wait = anchor.wall + (ts - anchor.ts) / speed - this.timer.now();
        if (wait > 0) {
          // What was due when it started again is out: the replay's clock is the venue's again.
          this.resumed = undefined;
          await this.sleep(wait);
          sinceYield = 0;
        }
        if (this.stopped) return;
      }
      if (this.pacing.mode === 'manual') this.allowance--;
      this.released++;
      this.upcoming = undefined;
      this.release(next.value, this.released, false);
      this.settleWaiters();
      // Let sockets breathe during bursts (asap, or a realtime replay running behind).
      if (++sinceYield >= 256 && (this.pacing.mode === 'asap' || this.pacing.mode === 'realtime')) {
        sinceYield = 0;
        await this.sleep(0);
      }
    }
  }
}
