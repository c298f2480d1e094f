import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type { Dec, InstrumentSpec } from '../../core/model/index.ts';
import { D } from '../../core/model/index.ts';
import { orderToWire, realTimer, type TimerPort } from '../../core/venue/index.ts';
import type { FillModelName, FillModelOptions, LatencyOptions, LoanOptions } from '../sim/index.ts';
import { COMMANDS, type CommandName } from './command-table.ts';
import { DerivedMarketData } from './derived-market-data.ts';
import { PaperFaults } from './faults.ts';
import { broadcast, MarketDataSession } from './market-data-ws.ts';
import { type FeedPacing, type FeedSource, listFeed, MarketFeed } from './market-feed.ts';
import { type JournalEntry, loadSnapshot, type PaperSnapshot, SnapshotWriter } from './persistence.ts';
import { type PaperPortfolioOptions, PortfolioBook } from './portfolio-book.ts';
import { PrivateSession } from './private-ws-session.ts';
import { PAPER_RATE_LIMITS, RateLimits, type WindowLimit } from './rate-limits.ts';
import type { Params } from './request-fields.ts';
import type { ApiCredential } from './rest-auth.ts';
import { type ExtensionRoute, restHandler } from './rest-router.ts';
import { VenueLatency } from './venue-latency.ts';
import { decimalsAsText, executionToWire, positionToWire } from './wire-views.ts';

/** Path of the private WebSocket (per public venue docs). */
export const PRIVATE_WS_PATH = '/v1/private';
/** Path of the public market-data WebSocket (per public venue docs). */
export const MARKET_DATA_WS_PATH = '/marketdata/v2/public';
/** Keel's paper-venue extension: REST lockstep ack, body `{ "seq": n }`, signed like any request. */
export const LOCKSTEP_ACK_PATH = '/api/v1/paper/lockstep/ack';

/** Settings of a paper venue. */
export interface PaperVenueOptions {
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
  readonly apiSecret?: string;
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
  readonly loans?: LoanOptions;
  /** Market data; default none (an empty feed). */
  readonly feed?: FeedSource;
  /** Default realtime at speed 1. */
  readonly pacing?: FeedPacing;
  /** State survives restarts in this directory; omitted = memory only. */
  readonly dataDir?: string;
  /** Debounce of snapshot writes, ms (default 1000). */
  readonly persistDebounceMs?: number;
  /** The server's wall clock and timers (nonce window, rate limits, idle close, pacing). */
  readonly timer?: TimerPort;
  /**
   * Lockstep with a latency: a command or push still waiting this long (wall ms) beyond its delay
   * runs anyway, for a client that stopped acknowledging events (e.g. the cancels of its
   * shutdown). Default 2000 (Keel's choice); a client that keeps acknowledging moves the venue's
   * time past the arrival long before.
   */
  readonly lockstepStallMs?: number;
  /** Idle private connections are closed after this long (default 30 s, per public venue docs). */
  readonly idleTimeoutMs?: number;
  /** Rolling window of the derived TICKER's high, low and volume, ms (default 24 h). */
  readonly tickerWindowMs?: number;
  /** Rate limits per group, replacing the defaults of {@link PAPER_RATE_LIMITS}. */
  readonly rateLimits?: Readonly<Partial<Record<string, WindowLimit>>>;
}

/** A running paper venue. */
export interface PaperVenue {
  readonly restUrl: string;
  readonly privateWsUrl: string;
  readonly marketDataWsUrl: string;
  /** Key, secret and id of the main portfolio. */
  readonly apiKey: string;
  readonly apiSecret: string;
  readonly portfolioId: string;
  readonly portfolios: readonly PaperPortfolioOptions[];
  readonly faults: PaperFaults;
  readonly feed: MarketFeed;
  /**
   * @returns the venue's virtual time: the last released event's time, or a delayed command's
   * arrival when that is later
   */
  now(): number;
  /** @returns how many commands are on their way to the matching engine (order-entry latency) */
  inFlight(): number;
  /** The fill model the sims match with, settings included, as reports state it. */
  readonly fillModel: string;
  /** Writes the snapshot (with a data dir), closes every connection and the server. */
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
 * @param options - instruments, portfolios, feed, pacing, data dir, ports and clocks
 * @returns the running venue
 * @throws Error when the data dir holds a snapshot that is not the paper venue's, or one saved with another feed
 * @example
 * const venue = await startPaperVenue({ instruments: Object.values(SYNTHETIC_INSTRUMENTS), feed: recordingFeed(path), pacing: { mode: 'asap' } });
 */
export async function startPaperVenue(options: PaperVenueOptions): Promise<PaperVenue> {
  const timer = options.timer ?? realTimer();
  const portfolios = portfoliosOf(options);
  const seed = options.seed ?? 1;
  const pacing = options.pacing ?? { mode: 'realtime', speed: 1 };
  const latency = options.latency;
  const market = {
    instruments: options.instruments,
    fillModel: options.fillModel ?? 'queue',
    seed,
    ...(options.loans === undefined ? {} : { loans: options.loans }),
    ...(latency === undefined ? {} : { latency }),
  };
  const books = new Map(portfolios.map((p, i) => [p.portfolioId, new PortfolioBook(p, market, i === 0)]));
  const credentials = new Map<string, ApiCredential>(
    portfolios.map((p) => [
      p.apiKey,
      { apiKey: p.apiKey, apiSecret: p.apiSecret, portfolioId: p.portfolioId },
    ]),
  );
  const faults = new PaperFaults();
  const limits = new RateLimits(options.rateLimits ?? PAPER_RATE_LIMITS);
  const privateSessions = new Set<PrivateSession>();
  const mdSessions = new Set<MarketDataSession>();
  const journal: JournalEntry[] = [];
  let virtualNow = 0;
  /** Market events the portfolios have processed (journal entries replay after that many). */
  let seen = 0;
  let writer: SnapshotWriter | undefined;

  const delays = new VenueLatency({
    latency,
    seed,
    pacing,
    lockstepStallMs: options.lockstepStallMs ?? 2000,
    timer,
    now: () => virtualNow,
  });

  const derived = new DerivedMarketData(
    options.instruments,
    function* () {
      for (const book of books.values()) yield* book.positions.values();
    },
    options.tickerWindowMs,
  );
  const wanted = (channel: string, sym: string): boolean => {
    for (const session of mdSessions) if (session.wants(channel, sym)) return true;
    return false;
  };
  const nobody = (): boolean => false;

  const feed = new MarketFeed(
    options.feed ?? listFeed([]),
    pacing,
    timer,
    (item, seq, replaying) => {
      // Commands and pushes due by this event's time come first, as in a backtest.
      delays.beforeEvent(item.event.recvTs);
      virtualNow = Math.max(virtualNow, item.event.recvTs);
      for (const book of books.values()) book.onMarket(item.event);
      seen = seq;
      // After the portfolios saw the event, so open interest includes the fills it caused.
      const extra = derived.onFeed(item.event, replaying ? nobody : wanted);
      if (replaying) return;
      let delivered = broadcast(mdSessions, item, seq, pacing.mode === 'lockstep');
      // Derived pushes carry the seq of the event they come from: acknowledging it covers them.
      for (const push of extra) delivered += broadcast(mdSessions, push, seq, pacing.mode === 'lockstep');
      // Nobody subscribed to this event, so nobody can acknowledge it: it counts as processed.
      if (pacing.mode === 'lockstep' && delivered === 0) feed.ack(seq);
      writer?.changed();
    },
    () => delays.feedEnded(),
  );

  /** Runs a command; a delayed one first moves its portfolio's sim (and the venue) to its arrival. */
  const run = (book: PortfolioBook, entry: JournalEntry): unknown => {
    if (entry.arrival !== undefined) {
      virtualNow = Math.max(virtualNow, entry.arrival);
      book.advanceTo(entry.arrival);
    }
    return COMMANDS[entry.command](books, book, entry.params, entry.where);
  };
  const execute = (
    book: PortfolioBook,
    name: CommandName,
    params: Params,
    where: string,
    arrival?: number,
  ): unknown => {
    const entry: JournalEntry = {
      at: seen,
      ...(arrival === undefined ? {} : { arrival }),
      portfolioId: book.portfolioId,
      command: name,
      params,
      where,
    };
    journal.push(entry);
    writer?.changed();
    return run(book, entry);
  };
  const executeLater = (book: PortfolioBook, name: CommandName, params: Params, where: string) =>
    new Promise<unknown>((resolve, reject) =>
      delays.afterOrderEntry(name, (arrival) => {
        try {
          resolve(execute(book, name, params, where, arrival));
        } catch (error) {
          reject(error);
        }
      }),
    );
  if (options.dataDir !== undefined) {
    const saved = loadSnapshot(options.dataDir);
    if (saved) {
      const replay = (at: number) => {
        for (const entry of saved.journal) {
          const book = books.get(entry.portfolioId);
          if (entry.at !== at || !book) continue;
          journal.push(entry);
          try {
            run(book, entry);
          } catch {
            // The command was refused the first time too; replaying it keeps the sim's counters equal.
          }
        }
      };
      replay(0);
      await feed.catchUp(saved.released, replay);
      if (feed.released !== saved.released || virtualNow !== saved.virtualNow) {
        throw new Error(
          `${options.dataDir}: the snapshot was taken after ${saved.released} market events at venue time ${saved.virtualNow}, ` +
            `but this feed replays to ${feed.released} events at ${virtualNow}: start the venue with the feed it was saved with`,
        );
      }
      for (const [id, bps] of Object.entries(saved.markups)) {
        const book = books.get(id);
        book?.setMarkup(D(bps).div(10_000));
      }
    }
    writer = new SnapshotWriter(options.dataDir, timer, options.persistDebounceMs ?? 1000, () =>
      snapshotOf(books, journal, feed.released, virtualNow),
    );
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
  const server: Server = createServer(
    restHandler({
      credentials,
      books,
      instruments: options.instruments,
      loans: options.loans,
      limits,
      faults,
      wallNow: () => timer.now(),
      virtualNow: () => virtualNow,
      execute: executeLater,
      extensions,
    }),
  );
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== PRIVATE_WS_PATH && url.pathname !== MARKET_DATA_WS_PATH) {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      if (url.pathname === PRIVATE_WS_PATH) {
        const session = new PrivateSession(ws, {
          credentials,
          books,
          faults,
          limits,
          timer,
          idleMs: options.idleTimeoutMs ?? 30_000,
          execute,
          delays,
          lockstepAck: (seq) => feed.ack(seq),
        });
        privateSessions.add(session);
        ws.on('close', () => privateSessions.delete(session));
      } else {
        const syms = new Set(options.instruments.map((s) => s.sym));
        const session = new MarketDataSession(ws, url.searchParams.get('binary') !== 'false', {
          syms,
          timer,
          lockstepAck: (seq) => feed.ack(seq),
        });
        mdSessions.add(session);
        ws.on('close', () => mdSessions.delete(session));
      }
    });
  });
  faults.bindDropper((which) => {
    if (which !== 'market-data') for (const s of privateSessions) s.ws.terminate();
    if (which !== 'private') for (const s of mdSessions) s.ws.terminate();
  });

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const base = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  feed.start();
  const main = portfolios[0] as PaperPortfolioOptions;
  return {
    restUrl: `http://${base}`,
    privateWsUrl: `ws://${base}${PRIVATE_WS_PATH}`,
    marketDataWsUrl: `ws://${base}${MARKET_DATA_WS_PATH}`,
    apiKey: main.apiKey,
    apiSecret: main.apiSecret,
    portfolioId: main.portfolioId,
    portfolios,
    faults,
    feed,
    now: () => virtualNow,
    inFlight: () => delays.inFlight,
    fillModel: (books.get(main.portfolioId) as PortfolioBook).sim.assumptions.fillModel,
    async close(): Promise<void> {
      await feed.stop();
      // Commands already on their way reach the matching engine before the venue saves and closes.
      delays.closing();
      writer?.flush();
      for (const s of privateSessions) {
        s.dispose();
        s.ws.terminate();
      }
      for (const s of mdSessions) s.ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function snapshotOf(
  books: ReadonlyMap<string, PortfolioBook>,
  journal: readonly JournalEntry[],
  released: number,
  virtualNow: number,
): PaperSnapshot {
  const markups: Record<string, string> = {};
  for (const book of books.values())
    if (book.markup) markups[book.portfolioId] = book.markup.mul(10_000).toFixed();
  return {
    format: 'keel-paper-venue',
    version: 1,
    released,
    virtualNow,
    journal,
    markups,
    view: [...books.values()].map((book) => ({
      portfolioId: book.portfolioId,
      main: book.isMain,
      positionMode: book.positionMode,
      orders: [...book.orders.values()].map(orderToWire),
      executions: book.executions.map(executionToWire),
      positions: [...book.positions.values()].map(positionToWire),
      loans: [...book.loans.values()].map(decimalsAsText),
    })),
  };
}
