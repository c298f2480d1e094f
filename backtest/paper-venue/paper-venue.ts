import type { Dec, InstrumentSpec } from '../../core/model/index.ts';
import { D, isPerpetual } from '../../core/model/index.ts';
import {
  type ArrayEncoding,
  DEFAULT_ARRAY_ENCODING,
  realTimer,
  type TimerPort,
} from '../../core/venue/index.ts';
import type { RunLock } from '../report/index.ts';
import type {
  BarOverlap,
  EarlySpanWork,
  FillModelName,
  FillModelOptions,
  LatencyOptions,
  LoanOptions,
} from '../sim/index.ts';
import { accountViewOf } from './account-view.ts';
import { CommandJournal } from './command-journal.ts';
import { CommandLog, savedJournal } from './command-log.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { DerivedMarketData } from './derived-market-data.ts';
import { PaperFaults } from './faults.ts';
import { type FeedPacing, type FeedSource, listFeed, MarketFeed } from './market-feed.ts';
import { lockstepSettleRounds, lockstepTick, marketRelease, pacedTimerTick } from './market-release.ts';
import { SnapshotWriter } from './persistence.ts';
import { type PaperPortfolioOptions, PortfolioBook, venueLoansOf } from './portfolio-book.ts';
import { PAPER_RATE_LIMITS, RateLimits, type WindowLimit } from './rate-limits.ts';
import { RestArrivals } from './rest-arrivals.ts';
import type { ApiCredential } from './rest-auth.ts';
import type { ExtensionRoute } from './rest-router.ts';
import { serverTime } from './server-time.ts';
import { VenueClock } from './venue-clock.ts';
import { VenueConnections } from './venue-connections.ts';
import { type LockstepStall, VenueLatency } from './venue-latency.ts';
import { startVenueServer } from './venue-server.ts';
import { restoreSnapshot, snapshotOf, type VenueState } from './venue-snapshot.ts';

/** Keel's paper-venue extension: REST lockstep ack, body `{ "seq": n }`, signed like any request. */
export const LOCKSTEP_ACK_PATH = '/api/v1/paper/lockstep/ack';

/** Settings of a paper venue. */
export interface PaperVenueOptions {
  /** The instruments the venue lists, quotes and trades. */
  readonly instruments: readonly InstrumentSpec[];
  /** Address to listen on; default 127.0.0.1 (loopback only). */
  readonly host?: string;
  /** Port; 0 (default) picks a free one. */
  readonly port?: number;
  /**
   * The account's portfolios; the first is the main one. Default: one main portfolio `PAPER-MAIN`
   * with the key below and 100000 USDT.
   */
  readonly portfolios?: readonly PaperPortfolioOptions[];
  /** Key of the default main portfolio (Keel's choice of default; loopback only, not a secret). */
  readonly apiKey?: string;
  /** Secret of the default main portfolio's key (Keel's choice of default, as the key). */
  readonly apiSecret?: string;
  /** Balances of the default main portfolio by asset (default 100000 USDT). */
  readonly startingBalances?: Readonly<Record<string, Dec>>;
  /** The sims' fill model: a name or a name with settings. Default `queue`, as the sim's. */
  readonly fillModel?: FillModelName | FillModelOptions;
  /** Seeds the latency jitter (default 1). */
  readonly seed?: number;
  /**
   * Latency the venue applies, on its own (virtual) time: each order-entry command reaches the
   * matching engine `orderEntry` later (its reply is sent once it ran there), and User Data
   * pushes leave `userData` after their events (default: the market-data leg, as in the sim).
   * The market-data leg itself delays no market-data push. Absent = none: commands run at once.
   */
  readonly latency?: LatencyOptions;
  /** Margin-loan terms of the sims (borrowable assets, rates, quotas, LTV levels). */
  readonly loans?: LoanOptions;
  /**
   * How the venue writes a JSON body's array parameters into the REST signature text it verifies
   * (the public docs do not say; see `ArrayEncoding`; a query's are verified as the text received):
   * set it otherwise than a client's
   * `venue.signing.arrays` to rehearse the 2000 a mismatch gets. Default `comma`, as Keel signs.
   */
  readonly signatureArrays?: ArrayEncoding;
  /**
   * Whether `GET /api/v1/trading/account` lists the portfolio's assets (Keel's extension: the
   * public notes' account fields hold none, and the spec does not show them). False leaves them
   * out, as a venue that follows the notes would, so a client that needs balances from elsewhere
   * (the Assets channel) can be rehearsed. Default true.
   */
  readonly accountAssets?: boolean;
  /**
   * Whether the feed is SYNTHETIC (generated, or a recording labelled synthetic). The venue says
   * so in `GET /api/v1/system/status` (`syntheticFeed: true`, a Keel extension), so a live session
   * run against it labels its recording and report SYNTHETIC. Default false.
   */
  readonly syntheticFeed?: boolean;
  /** Market data; default none (an empty feed). */
  readonly feed?: FeedSource;
  /** Default realtime at speed 1. */
  readonly pacing?: FeedPacing;
  /**
   * State survives restarts in this directory, crashes included (each command is logged before it
   * runs; snapshots are debounced); omitted = memory only. One venue at a time: a running venue
   * holds its lock (`paper-venue.lock`), and one that is gone leaves it to be taken over.
   */
  readonly dataDir?: string;
  /**
   * The data dir's lock, taken by the caller with {@link lockDataDir} before it wrote files of its
   * own there (`keel venue`'s start file); the venue holds it from then on, and releases it when it
   * closes or fails to start. Absent = the venue takes the lock of `dataDir` itself.
   */
  readonly dataDirLock?: RunLock;
  /** Debounce of snapshot writes, ms (default 1000). */
  readonly persistDebounceMs?: number;
  /**
   * The wall clock and timers (rate limits, idle close, pacing; the server's clock, its `Date`
   * header and nonce window, before the first event and outside realtime pacing).
   */
  readonly timer?: TimerPort;
  /**
   * Lockstep with a latency: a command or push still waiting this long (wall ms) beyond its delay
   * runs anyway, for a client that stopped acknowledging events (e.g. the cancels of its
   * shutdown). Default 2000 (Keel's choice); a client that keeps acknowledging moves the venue's
   * time past the arrival long before.
   */
  readonly lockstepStallMs?: number;
  /**
   * Lockstep: told each time the stall bound ran commands or pushes (see
   * {@link PaperVenue.lockstepStalls}), so a session can say its run waited on it.
   */
  readonly onLockstepStall?: (stall: LockstepStall) => void;
  /** Idle private connections are closed after this long (default 30 s, per public venue docs). */
  readonly idleTimeoutMs?: number;
  /** Rolling window of the derived TICKER's high, low and volume, ms (default 24 h). */
  readonly tickerWindowMs?: number;
  /** Rate limits per group, replacing the defaults of {@link PAPER_RATE_LIMITS}. */
  readonly rateLimits?: Readonly<Partial<Record<string, WindowLimit>>>;
}

/** A running paper venue. */
export interface PaperVenue {
  /** Base URL of the REST interface, e.g. `http://127.0.0.1:41234`. */
  readonly restUrl: string;
  /** URL of the private WebSocket. */
  readonly privateWsUrl: string;
  /** URL of the market-data WebSocket (gzip frames unless `?binary=false` is added). */
  readonly marketDataWsUrl: string;
  /** API key of the main portfolio. */
  readonly apiKey: string;
  /** Secret of that key (loopback only, not a secret worth keeping). */
  readonly apiSecret: string;
  /** Id of the main portfolio. */
  readonly portfolioId: string;
  /** Every portfolio of the account, the main one first. */
  readonly portfolios: readonly PaperPortfolioOptions[];
  /** Faults a test can inject: failing REST requests, late, doubled or withheld pushes, dropped connections. */
  readonly faults: PaperFaults;
  /** The market feed: its pacing, what it released, the lockstep ack. */
  readonly feed: MarketFeed;
  /**
   * @returns the venue's virtual time: the last released event's time, or a delayed command's
   * arrival when that is later
   */
  now(): number;
  /**
   * @returns the replay's time: in realtime pacing the last released event's time plus the wall
   * time since, times the speed (the time a command sent now arrives at, before its latency);
   * otherwise {@link PaperVenue.now}. Not monotonic when the feed runs behind its pace.
   */
  replayNow(): number;
  /**
   * @returns the replay's running time alone: in realtime pacing the last released event's time
   * plus the wall time since, times the speed, which runs on where {@link PaperVenue.replayNow}
   * stands still at the venue's clock (a delayed command's arrival ahead of an event released
   * late); otherwise {@link PaperVenue.now}
   */
  replayRunningNow(): number;
  /**
   * @returns the server's clock, epoch ms: its REST `Date` header, and what a REST nonce or a
   * login timestamp is checked against (see `serverTime`: the replay's clock in realtime pacing)
   */
  serverNow(): number;
  /** @returns how many commands are on their way to the matching engine (order-entry latency) */
  inFlight(): number;
  /**
   * Lockstep: how many times a command or push ran at the stall bound (`lockstepStallMs` of wall
   * time past its time) instead of when the client's acks moved the venue there; 0 in a run that
   * never waited on it.
   */
  lockstepStalls(): number;
  /**
   * Realtime pacing: a timer of the session on the venue's clock fires at `at` (its wake-up, on
   * the replay's time). The venue moves its sims there, at most to its running time (see
   * `pacedTimerTick`), so the commands the timer sends run at its time, as a backtest and a
   * lockstep tick run them, not at the last market event's. Nothing in other pacings, where the
   * venue's time moves only with its events (lockstep ticks to the session's timers itself), and
   * once the venue closes.
   * @param at - the timer's time, venue ms
   */
  timerFires(at: number): void;
  /** The fill model the sims match with, settings included, as reports state it. */
  readonly fillModel: string;
  /**
   * The main portfolio's bars, on the bar fill model, matched after the venue had already run
   * its own work inside their span (`SimVenue.earlySpanWork`), for the session's warnings.
   * @returns how many and the first; undefined when none
   */
  earlySpanWork(): EarlySpanWork | undefined;
  /**
   * The syms the main portfolio's bar fill model met bars of several intervals of, and the coarser
   * bars it passed over (`SimVenue.barOverlaps`), for the session's warnings.
   * @returns one entry per such sym
   */
  barOverlaps(): BarOverlap[];
  /**
   * Writes the snapshot (with a data dir), closes every connection and the server, and releases the
   * data dir; once: a second call gets the first one's promise and touches nothing (a data dir another
   * venue took since stays locked). The server is closed and the data dir released even when
   * stopping the feed or writing the snapshot fails; the promise then rejects with that error.
   */
  close(): Promise<void>;
}

function portfoliosOf(options: PaperVenueOptions): readonly PaperPortfolioOptions[] {
  if (options.portfolios && options.portfolios.length > 0) return options.portfolios;
  return [
    {
      portfolioId: 'PAPER-MAIN',
      apiKey: options.apiKey ?? 'keel-paper-key',
      apiSecret: options.apiSecret ?? 'keel-paper-secret',
      startingBalances: options.startingBalances ?? { USDT: D(100_000) },
    },
  ];
}

/**
 * Starts a paper venue (on 127.0.0.1 unless told otherwise): the trading service's REST interface, private WebSocket and
 * market-data WebSocket, backed by one simulated venue per portfolio and fed by a market source.
 * In realtime pacing it returns once the source's first event is released (at once), so its
 * clock is the replay's from the first reply (see `serverTime`).
 * @param options - instruments, portfolios, feed, pacing, data dir, ports and clocks
 * @returns the running venue
 * @throws DataDirInUseError when another running venue holds the data dir; DataDirReplayError when
 *   its replay does not rebuild what the venue saved there (another feed, or a journaled command
 *   this Keel runs otherwise); Error when it holds a snapshot or command log that is not the paper
 *   venue's
 * @example
 * const venue = await startPaperVenue({ instruments: Object.values(SYNTHETIC_INSTRUMENTS), feed: recordingFeed(path), pacing: { mode: 'asap' } });
 */
export async function startPaperVenue(options: PaperVenueOptions): Promise<PaperVenue> {
  const timer = options.timer ?? realTimer();
  const lock =
    options.dataDir === undefined
      ? undefined
      : (options.dataDirLock ?? lockDataDir(options.dataDir, timer.now()));
  try {
    return await startHoldingDataDir(options, timer, lock);
  } catch (error) {
    lock?.release();
    throw error;
  }
}

async function startHoldingDataDir(
  options: PaperVenueOptions,
  timer: TimerPort,
  lock: RunLock | undefined,
): Promise<PaperVenue> {
  const portfolios = portfoliosOf(options);
  const seed = options.seed ?? 1;
  const pacing = options.pacing ?? { mode: 'realtime', speed: 1 };
  const latency = options.latency;
  const books = new Map<string, PortfolioBook>();
  const market = {
    instruments: options.instruments,
    fillModel: options.fillModel ?? 'queue',
    seed,
    ...(options.loans === undefined ? {} : { loans: options.loans }),
    // One loan book: the quota and the pools count every portfolio's loans.
    venueLoans: () => venueLoansOf(books),
    ...(latency === undefined ? {} : { latency }),
  };
  for (const [i, p] of portfolios.entries()) books.set(p.portfolioId, new PortfolioBook(p, market, i === 0));
  const credentials = new Map<string, ApiCredential>(
    portfolios.map((p) => [
      p.apiKey,
      { apiKey: p.apiKey, apiSecret: p.apiSecret, portfolioId: p.portfolioId },
    ]),
  );
  const faults = new PaperFaults();
  const limits = new RateLimits(options.rateLimits ?? PAPER_RATE_LIMITS);
  const connections = new VenueConnections();
  const clock = new VenueClock();
  let writer: SnapshotWriter | undefined;
  const log = options.dataDir === undefined ? undefined : new CommandLog(options.dataDir);

  const delays = new VenueLatency({
    latency,
    seed,
    pacing,
    lockstepStallMs: options.lockstepStallMs ?? 2000,
    timer,
    ...(options.onLockstepStall === undefined ? {} : { stalled: options.onLockstepStall }),
    now: () => clock.now(),
  });
  const server = serverTime(pacing, timer, delays, () => feed.catchingUpTo());
  const journal = new CommandJournal(books, clock, delays, (entry, index) => {
    log?.append(entry, index);
    writer?.changed();
  });
  const derived = new DerivedMarketData(
    options.instruments,
    function* () {
      for (const book of books.values()) yield* book.positions.values();
    },
    options.tickerWindowMs,
  );
  const feed: MarketFeed = new MarketFeed(
    options.feed ?? listFeed([]),
    pacing,
    timer,
    marketRelease({
      delays,
      clock,
      books,
      journal,
      derived,
      connections,
      pacing,
      ack: (seq) => feed.ack(seq),
      changed: () => writer?.changed(),
    }),
    () => delays.feedEnded(),
    lockstepTick({ delays, clock, journal, connections }),
    (before) => delays.settleBefore(before),
    lockstepSettleRounds({ delays, clock, journal, connections }),
  );

  if (options.dataDir !== undefined) {
    const state: VenueState = {
      books,
      journal,
      feed,
      clock,
      serverClock: () => ({ wall: timer.now(), venue: server.now() }),
    };
    const { saved, entries } = savedJournal(options.dataDir);
    if (saved !== undefined || entries.length > 0)
      await restoreSnapshot(state, saved, entries, options.dataDir);
    writer = new SnapshotWriter(
      options.dataDir,
      timer,
      options.persistDebounceMs ?? 1000,
      () => snapshotOf(state),
      () => accountViewOf(books),
    );
    if (saved?.version === 1) {
      log?.rewrite(entries);
      writer.changed();
    }
  }

  const extensions = new Map<string, ExtensionRoute>([
    [
      `POST ${LOCKSTEP_ACK_PATH}`,
      (_book, params) => {
        feed.ack(Number(params.seq));
        return { acked: feed.acked, released: feed.released };
      },
    ],
  ]);
  // Lockstep acks wait for the REST commands they count (they travel on another connection).
  const arrivals = new RestArrivals(
    (seq, extras) => {
      delays.clientHolds(extras.held === true);
      feed.ack(seq, extras);
    },
    timer,
    options.lockstepStallMs ?? 2000,
  );
  const listening = await startVenueServer({
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    connections,
    rest: {
      credentials,
      books,
      instruments: options.instruments,
      loans: options.loans,
      signatureArrays: options.signatureArrays ?? DEFAULT_ARRAY_ENCODING,
      accountAssets: options.accountAssets ?? true,
      syntheticFeed: options.syntheticFeed ?? false,
      limits,
      faults,
      wallNow: () => timer.now(),
      serverTime: server,
      virtualNow: () => clock.now(),
      execute: (book, name, params, where) => journal.executeLater(book, name, params, where),
      extensions,
      restArrived: (header) => arrivals.arrived(header),
    },
    privateSession: {
      credentials,
      books,
      faults,
      limits,
      timer,
      serverNow: () => server.now(),
      venueNow: () => clock.now(),
      idleMs: options.idleTimeoutMs ?? 30_000,
      execute: (book, name, params, where, arrival) => journal.execute(book, name, params, where, arrival),
      delays,
      lockstepAck: (seq, extras) => arrivals.ack(seq, extras),
    },
    marketData: {
      syms: new Set(options.instruments.map((s) => s.sym)),
      perpetuals: new Set(options.instruments.filter((s) => isPerpetual(s.id)).map((s) => s.sym)),
      timer,
      lockstepAck: (seq) => feed.ack(seq),
    },
  });
  faults.bindDropper((which) => connections.drop(which));
  const timerTick = pacedTimerTick({ delays, clock, journal, nextEventTs: () => feed.nextEventTs() });
  feed.start();
  // In realtime pacing the server's clock is the replay's from its first event, released at once:
  // a client's first reply already tells that clock, not the wall clock it would jump back from.
  if (pacing.mode === 'realtime') await feed.until(1);
  const main = portfolios[0] as PaperPortfolioOptions;
  let closing: Promise<void> | undefined;
  return {
    restUrl: listening.restUrl,
    privateWsUrl: listening.privateWsUrl,
    marketDataWsUrl: listening.marketDataWsUrl,
    apiKey: main.apiKey,
    apiSecret: main.apiSecret,
    portfolioId: main.portfolioId,
    portfolios,
    faults,
    feed,
    now: () => clock.now(),
    replayNow: () => delays.now(),
    replayRunningNow: () => delays.runningNow(),
    serverNow: () => server.now(),
    inFlight: () => delays.inFlight,
    lockstepStalls: () => delays.stalls,
    timerFires: (at) => {
      if (closing === undefined) timerTick(at);
    },
    fillModel: (books.get(main.portfolioId) as PortfolioBook).sim.assumptions.fillModel,
    earlySpanWork: () => (books.get(main.portfolioId) as PortfolioBook).sim.earlySpanWork(),
    barOverlaps: () => (books.get(main.portfolioId) as PortfolioBook).sim.barOverlaps(),
    close(): Promise<void> {
      closing ??= (async () => {
        // Whatever fails on the way (the feed's source, the snapshot's write) is thrown once the
        // server is closed and the data dir released: a failed close never keeps either.
        try {
          await feed.stop();
          // Commands already on their way reach the matching engine before the venue saves and closes.
          delays.closing();
          await writer?.flush();
        } finally {
          try {
            await listening.close();
          } finally {
            lock?.release();
          }
        }
      })();
      return closing;
    },
  };
}
