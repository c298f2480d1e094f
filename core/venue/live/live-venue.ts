import { type Logger, pino } from 'pino';
import { merge, type Observable } from 'rxjs';
import type { VenueStatus } from '../../model/index.ts';
import type { RateLimitGroup } from '../rest/endpoints.ts';
import type { RateLimit } from '../rest/rate-limiter.ts';
import type { RawRestReply } from '../rest/rest-call.ts';
import { VenueRestClient } from '../rest/rest-client.ts';
import type { RestMutationLedger } from '../rest/rest-mutations.ts';
import { ServerClock } from '../server-clock.ts';
import type { ArrayEncoding, Signer } from '../signing.ts';
import { type JitterSource, monotonicOf, realTimer, type TimerPort } from '../timer-port.ts';
import { createInboundCounters, type InboundCounters, type RawInboundFrame } from '../ws/inbound-counters.ts';
import { MarketDataClient, type MarketFrameGate } from '../ws/market-data-client.ts';
import { PrivateWsClient } from '../ws/private-ws-client.ts';
import type { ReconnectPolicy } from '../ws/private-ws-options.ts';
import { LiveExecutionClient } from './live-execution-client.ts';

/** A raw inbound venue message for a session recording: a WebSocket frame or a REST reply body. */
export type RawVenueMessage = RawInboundFrame | RawRestReply;

/** Where the venue lives and how to talk to it. */
export interface LiveVenueOptions {
  /** REST base address (the spec's `{base_url}`). */
  readonly restUrl: string;
  /** Private WebSocket address (path `/v1/private` per public venue docs). */
  readonly privateWsUrl: string;
  /** Public market-data WebSocket address (path `/marketdata/v2/public` per public venue docs). */
  readonly marketDataUrl: string;
  readonly signer: Signer;
  /** How REST signatures write array parameters (`venue.signing.arrays`); default `comma`. */
  readonly signatureArrays?: ArrayEncoding;
  readonly brokerClientId?: string;
  readonly onlyTrade?: boolean;
  /** Gzip market-data frames (default) or `?binary=false` text. */
  readonly binaryMarketData?: boolean;
  readonly legacyLoanEndpoints?: 'detail' | 'legacy';
  readonly rateLimits?: Partial<Record<RateLimitGroup, RateLimit | null>>;
  /**
   * Keel's own limit of place orders on the private socket, counted on the wall clock (default
   * 1200 per 60 s, the venue's); null = none, for a venue that counts on a time of its own.
   */
  readonly orderRateLimit?: RateLimit | null;
  readonly reconnect?: ReconnectPolicy;
  /**
   * How long each connection attempt of both sockets may take to open (TCP and WebSocket upgrade)
   * before it is abandoned and the reconnect backoff goes on, ms. Default 10 000.
   */
  readonly openTimeoutMs?: number;
  /**
   * How long a modify or cancel of an order whose place is unanswered waits for that answer before
   * it is sent anyway, ms (see `LiveExecutionOptions.heldCommandWaitMs`). Default 10 000.
   */
  readonly heldCommandWaitMs?: number;
  /**
   * Period of the reconciliation while the private stream is reconciled, ms; 0 for none (see
   * `LiveExecutionOptions.reconcileEveryMs`). Default: none.
   */
  readonly reconcileEveryMs?: number;
  /**
   * What keeps trading stopped once a reconciliation finished, for its log line (see
   * `LiveExecutionOptions.tradingStopped`). Default: nothing does.
   */
  readonly tradingStopped?: () => string | undefined;
  /**
   * The market-data heartbeat: `{"ping"}` every `heartbeatMs` (default 5 000), and the socket
   * dropped and reconnected when `silentHeartbeats` intervals (default 3) pass without a frame.
   */
  readonly marketDataHeartbeat?: { readonly heartbeatMs?: number; readonly silentHeartbeats?: number };
  /**
   * The private socket's heartbeat: text `ping` every `pingIntervalMs` (default 5 000), and the
   * socket dropped (the stream `down`) and reconnected when `silentPings` intervals (default 3)
   * pass without a frame.
   */
  readonly privateHeartbeat?: { readonly pingIntervalMs?: number; readonly silentPings?: number };
  /** Reply timeout of the private socket's requests and login, ms. Default 5 000. */
  readonly requestTimeoutMs?: number;
  readonly timer?: TimerPort;
  /**
   * Keel's estimate of the venue's clock, shared by the REST client and both sockets: one a
   * caller's earlier REST client learnt (a live session's checks before it starts). Default a new
   * one on `timer`.
   */
  readonly serverClock?: ServerClock;
  /**
   * The clock the events Keel makes itself are stamped with (see
   * `LiveExecutionOptions.eventClock`): a paper session's replay clock. Default the venue's time
   * as Keel estimates it from the `Date` header of its replies.
   */
  readonly eventClock?: () => number;
  readonly random?: JitterSource;
  readonly logger?: Logger;
  /**
   * Recorder tap: every raw inbound message (frames and REST reply bodies) with its receive
   * time. Outbound messages (the login with its signature, signed REST headers) never reach it,
   * so no secret can be recorded.
   */
  readonly onRaw?: (raw: RawVenueMessage) => void;
  /** Numbers the state-changing REST requests, for a lockstep paper session's acks. */
  readonly restMutations?: RestMutationLedger;
  /** Holds each market-data frame until it may be handled (a lockstep paper session's). */
  readonly marketFrameGate?: MarketFrameGate;
}

/** The live venue, wired: the clients and the counters of inbound traffic. */
export interface LiveVenue {
  readonly rest: VenueRestClient;
  readonly privateWs: PrivateWsClient;
  readonly marketData: MarketDataClient;
  /** The execution port for the kernel. */
  readonly execution: LiveExecutionClient;
  /**
   * Connection changes of both sockets (see `VenueStatus`): the private one's `down`, `up` and
   * `reconciled`, the market-data one's `down` and `up`. For the kernel, logs and metrics.
   */
  readonly status: Observable<VenueStatus>;
  /** Inbound counters of the private and market-data sockets and of REST replies. */
  readonly counters: {
    readonly private: InboundCounters;
    readonly market: InboundCounters;
    readonly rest: InboundCounters;
  };
  /**
   * Connects market data and the private socket, and reconciles (the venue's state is emitted on
   * `execution.events`). @returns when both are up and the first reconciliation is emitted
   */
  start(): Promise<void>;
  /**
   * Closes everything.
   * @param withinMs - how long the venue may take to answer the sockets' closes and the REST
   *   requests under way may take to finish; then the connections are dropped (a venue that
   *   stopped answering). Default: no limit of Keel's (the WebSocket library's 30 s, each
   *   request's own timeout).
   * @param requestsWithinMs - how long the REST requests under way may take, when less than
   *   `withinMs` (0: they are ended at once, e.g. when no answer could change anything); counted
   *   from when the sockets are closed. Default `withinMs`, less the time the sockets took.
   * @returns when closed
   */
  stop(withinMs?: number, requestsWithinMs?: number): Promise<void>;
}

/**
 * Wires the REST client, the private and market-data WebSockets and the execution client with
 * one timer, logger and recorder tap. For `config/`'s composition root (live and paper modes).
 * @param options - addresses, signer and policies
 * @returns the wired venue (not yet connected)
 */
export function createLiveVenue(options: LiveVenueOptions): LiveVenue {
  const timer = options.timer ?? realTimer();
  // Live-only I/O default, like the wall clock: reconnect jitter must differ between processes.
  const random = options.random ?? { next: Math.random };
  const logger = options.logger ?? pino({ name: 'keel.venue', level: 'info' });
  const counters = {
    private: createInboundCounters(),
    market: createInboundCounters(),
    rest: createInboundCounters(),
  };
  const tap = options.onRaw;
  const serverClock = options.serverClock ?? new ServerClock(timer, logger.child({ part: 'clock' }));
  const rest = new VenueRestClient({
    baseUrl: options.restUrl,
    signer: options.signer,
    ...(options.signatureArrays === undefined ? {} : { signatureArrays: options.signatureArrays }),
    timer,
    serverClock,
    random,
    logger: logger.child({ part: 'rest' }),
    counters: counters.rest,
    ...(options.legacyLoanEndpoints === undefined
      ? {}
      : { legacyLoanEndpoints: options.legacyLoanEndpoints }),
    ...(options.rateLimits === undefined ? {} : { rateLimits: options.rateLimits }),
    ...(tap === undefined ? {} : { onRaw: tap }),
    ...(options.restMutations === undefined ? {} : { mutations: options.restMutations }),
  });
  const privateWs = new PrivateWsClient({
    url: options.privateWsUrl,
    signer: options.signer,
    timer,
    serverClock,
    // Any signed read: its reply's Date moves the clock the socket signs its login with.
    refreshServerClock: () => rest.getTradingAccount(),
    random,
    counters: counters.private,
    logger: logger.child({ part: 'private-ws' }),
    ...(options.onlyTrade === undefined ? {} : { onlyTrade: options.onlyTrade }),
    ...(options.reconnect === undefined ? {} : { reconnect: options.reconnect }),
    ...(options.orderRateLimit === undefined ? {} : { orderRateLimit: options.orderRateLimit }),
    ...(options.openTimeoutMs === undefined ? {} : { openTimeoutMs: options.openTimeoutMs }),
    ...options.privateHeartbeat,
    ...(options.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: options.requestTimeoutMs }),
    ...(tap === undefined ? {} : { onRaw: tap }),
  });
  const marketData = new MarketDataClient({
    url: options.marketDataUrl,
    timer,
    serverClock,
    ...(options.eventClock === undefined ? {} : { eventClock: options.eventClock }),
    random,
    counters: counters.market,
    logger: logger.child({ part: 'market-data' }),
    ...(options.binaryMarketData === undefined ? {} : { binary: options.binaryMarketData }),
    ...options.marketDataHeartbeat,
    ...(options.reconnect === undefined ? {} : { reconnect: options.reconnect }),
    ...(options.openTimeoutMs === undefined ? {} : { openTimeoutMs: options.openTimeoutMs }),
    ...(tap === undefined ? {} : { onRaw: tap }),
    ...(options.marketFrameGate === undefined ? {} : { gate: options.marketFrameGate }),
  });
  const execution = new LiveExecutionClient({
    rest,
    ws: privateWs,
    timer,
    ...(options.eventClock === undefined ? {} : { eventClock: options.eventClock }),
    logger: logger.child({ part: 'execution' }),
    ...(options.brokerClientId === undefined ? {} : { brokerClientId: options.brokerClientId }),
    ...(options.heldCommandWaitMs === undefined ? {} : { heldCommandWaitMs: options.heldCommandWaitMs }),
    ...(options.tradingStopped === undefined ? {} : { tradingStopped: options.tradingStopped }),
    ...(options.reconcileEveryMs === undefined ? {} : { reconcileEveryMs: options.reconcileEveryMs }),
  });
  return {
    rest,
    privateWs,
    marketData,
    execution,
    status: merge(execution.status, marketData.status),
    counters,
    async start() {
      await Promise.all([marketData.connect(), execution.start()]);
    },
    async stop(withinMs, requestsWithinMs) {
      const began = monotonicOf(timer);
      await Promise.all([marketData.close(withinMs), execution.stop(withinMs)]);
      const left = withinMs === undefined ? undefined : Math.max(0, withinMs - (monotonicOf(timer) - began));
      await rest.close(
        requestsWithinMs === undefined
          ? left
          : left === undefined
            ? requestsWithinMs
            : Math.min(left, requestsWithinMs),
      );
    },
  };
}
