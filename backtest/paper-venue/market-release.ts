import type { CommandJournal } from './command-journal.ts';
import type { DerivedMarketData } from './derived-market-data.ts';
import { lockstepSettleFrame } from './lockstep-settle.ts';
import { lockstepTickFrame } from './lockstep-tick.ts';
import type { FeedPacing, FeedRelease, FeedSettleRounds, FeedTick } from './market-feed.ts';
import type { PortfolioBook } from './portfolio-book.ts';
import type { VenueClock } from './venue-clock.ts';
import type { VenueConnections } from './venue-connections.ts';
import type { VenueLatency } from './venue-latency.ts';

/** What releasing a market event touches. */
export interface MarketReleaseDeps {
  /** The latency legs: commands and pushes due before the event go first. */
  readonly delays: Pick<VenueLatency, 'beforeEvent'>;
  /** The venue's time, moved to the event's. */
  readonly clock: VenueClock;
  /** Every portfolio by id. */
  readonly books: ReadonlyMap<string, PortfolioBook>;
  /** The command journal, which notes the event for replays. */
  readonly journal: Pick<CommandJournal, 'marketEventSeen'>;
  /** The channels derived from the feed when it does not carry them (ticker, index price, open interest). */
  readonly derived: DerivedMarketData;
  /** The market-data subscribers the event is pushed to. */
  readonly connections: Pick<VenueConnections, 'wants' | 'broadcast'>;
  /** How the feed is paced (lockstep acks the event itself when nobody is subscribed). */
  readonly pacing: FeedPacing;
  /**
   * Lockstep: counts the event as processed by the client.
   * @param seq - the event's seq
   */
  ack(seq: number): void;
  /** The venue's state changed (the snapshot writer's debounce). */
  changed(): void;
}

/**
 * How the venue releases a market event from its feed: commands and pushes due by then first,
 * then the portfolios' sims, then the derived channels, then the pushes to subscribers. In
 * lockstep an event nobody subscribed to is acknowledged at once, since no client can.
 * @param deps - the venue's latency, clock, portfolios, journal, derived data and connections
 * @returns the feed's release callback
 */
export function marketRelease(deps: MarketReleaseDeps): FeedRelease {
  const { delays, clock, books, journal, derived, connections } = deps;
  const lockstep = deps.pacing.mode === 'lockstep';
  const wanted = (channel: string, sym: string): boolean => connections.wants(channel, sym);
  const nobody = (): boolean => false;
  return (item, seq, replaying) => {
    // Commands and pushes due by this event's time come first, as in a backtest.
    delays.beforeEvent(item.event.recvTs);
    clock.reach(item.event.recvTs);
    for (const book of books.values()) book.onMarket(item.event);
    journal.marketEventSeen(seq);
    // After the portfolios saw the event, so open interest includes the fills it caused.
    const extra = derived.onFeed(item.event, replaying ? nobody : wanted);
    if (replaying) return;
    let delivered = connections.broadcast(item, seq, lockstep);
    // Derived pushes carry the seq of the event they come from: acknowledging it covers them.
    for (const push of extra) delivered += connections.broadcast(push, seq, lockstep);
    // Nobody subscribed to this event, so nobody can acknowledge it: it counts as processed.
    if (lockstep && delivered === 0) deps.ack(seq);
    deps.changed();
  };
}

/** What moving the venue to a lockstep client's wake-up time touches. */
export interface LockstepTickDeps {
  /** The latency legs: commands and pushes due by then go first. */
  readonly delays: Pick<VenueLatency, 'beforeEvent'>;
  /** The venue's time, which the tick frame states. */
  readonly clock: VenueClock;
  /**
   * The command journal, which journals the tick (a restart moves there too) and moves the venue
   * and every portfolio's sim to its time.
   */
  readonly journal: Pick<CommandJournal, 'tick'>;
  /** The market-data connections the tick frame goes to. */
  readonly connections: Pick<VenueConnections, 'sendToAll' | 'stampPrivateSent'>;
}

/**
 * How the venue ticks in lockstep: commands and pushes due by the client's wake-up time first,
 * then the venue and its sims move there (journaled), then every market-data connection is told
 * (Keel's extension), so the client fires its timers at the time a backtest would, before the
 * next event.
 * @param deps - the venue's latency, clock, journal and connections
 * @returns the feed's tick callback
 */
export function lockstepTick(deps: LockstepTickDeps): FeedTick {
  return (at, tick) => {
    deps.delays.beforeEvent(at);
    deps.journal.tick(at);
    const privateSent = deps.connections.stampPrivateSent();
    return deps.connections.sendToAll(lockstepTickFrame(deps.clock.now(), tick, privateSent));
  };
}

/** What settling a lockstep client's commands before the next event touches. */
export interface LockstepSettleDeps {
  /** The latency lines: the first instant of what waits on them runs at a time. */
  readonly delays: Pick<VenueLatency, 'nextDue' | 'runDueBy'>;
  /** The venue's time, moved to that instant. */
  readonly clock: VenueClock;
  /** The command journal, which journals a move of the venue's time (a restart moves there too). */
  readonly journal: Pick<CommandJournal, 'tick'>;
  /** The lockstep client's private frames, and the market-data connections the settle frame goes to. */
  readonly connections: Pick<VenueConnections, 'sendToAll' | 'stampPrivateSent' | 'sentPastStamp'>;
}

/**
 * How the venue settles a lockstep client's commands before its next event (Keel's extension,
 * see {@link FeedSettleRounds}): a settle frame to every market-data connection when the client
 * was sent replies or pushes past the last lockstep frame; with a latency, the commands and
 * pushes waiting run one instant at a time, the venue moved there (journaled, as a tick), so the
 * client's reactions to them count from their time.
 * @param deps - the venue's latency, clock, journal and connections
 * @returns the feed's settle rounds
 */
export function lockstepSettleRounds(deps: LockstepSettleDeps): FeedSettleRounds {
  return {
    frame: (round) => {
      if (!deps.connections.sentPastStamp()) return false;
      const privateSent = deps.connections.stampPrivateSent();
      return deps.connections.sendToAll(lockstepSettleFrame(round, privateSent)) > 0;
    },
    step: (before) => {
      const due = deps.delays.nextDue();
      if (due === undefined || due > before) return false;
      deps.delays.runDueBy(due);
      // A push that left after the last command's arrival: the client learns of it then.
      if (deps.clock.now() < due) deps.journal.tick(due);
      return true;
    },
  };
}

/** What moving the venue to a paced session's timer touches. */
export interface PacedTimerTickDeps {
  /** The latency legs: commands and pushes due by then go first; the replay's running time bounds the move. */
  readonly delays: Pick<VenueLatency, 'runDueBy' | 'now' | 'started'>;
  /** The venue's time (its sims'), moved to the timer's. */
  readonly clock: VenueClock;
  /** The command journal, which journals the move (a restart moves there too) and makes it. */
  readonly journal: Pick<CommandJournal, 'tick'>;
  /**
   * The time of the next market event not released yet (`MarketFeed.nextEventTs`): undefined
   * while the source has not given it.
   */
  readonly nextEventTs: () => number | undefined;
}

/**
 * How the venue follows a session's timer in realtime pacing: the session's clock is the replay's
 * running time, but the venue's sims stay at the last market event until something moves them,
 * so a command a strategy's timer sent inside a bar would run at that bar's start and meet its
 * prices, which a backtest (and the kernel's emulated stops) count as having come before the
 * command was made. Told that a timer fires at `at`, the venue moves there as a lockstep tick
 * does (commands and pushes due by then first, journaled, never past the replay's running time
 * nor back): the commands the timer sends run at its time or later. Never past a market event
 * not released yet either (a feed running late behind the replay's clock): the move stops at
 * that event's time, and, while the source has not given the next event, the venue stays where
 * it is, so that event is never matched after what came later than it. Before the first event,
 * and when the venue is already there, nothing.
 * @param deps - the venue's latency, clock and journal
 * @returns the call taking the timer's time (venue ms)
 */
export function pacedTimerTick(deps: PacedTimerTickDeps): (at: number) => void {
  return (at) => {
    if (!deps.delays.started) return;
    const to = Math.min(at, deps.delays.now(), deps.nextEventTs() ?? deps.clock.now());
    if (to <= deps.clock.now()) return;
    deps.delays.runDueBy(to);
    deps.journal.tick(to);
  };
}
