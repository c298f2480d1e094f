import type { Logger } from 'pino';
import type { RateLimit } from '../rest/rate-limiter.ts';
import type { ServerClock } from '../server-clock.ts';
import type { Signer } from '../signing.ts';
import type { JitterSource, TimerPort } from '../timer-port.ts';
import type { InboundCounters, RawInboundFrame } from './inbound-counters.ts';
import type { LateReply } from './pending-requests.ts';

/**
 * The reply timeout of the private socket's requests and its login when the options say none
 * (Keel's choice): a healthy venue answers within a second; a reply that takes longer leaves the
 * command's outcome to the lookups that follow a timeout, which should not start later than this.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 5_000;

/** Reconnect policy: capped exponential backoff with jitter. */
export interface ReconnectPolicy {
  readonly baseMs: number;
  readonly capMs: number;
  /** Shortest wait before a reconnect (login is limited to 1 per second per public venue docs). Default 1 000 ms. */
  readonly minMs?: number;
}

/** Options of the private WebSocket client. */
export interface PrivateWsOptions {
  /** e.g. `wss://host/v1/private` (path per public venue docs). */
  readonly url: string;
  readonly signer: Signer;
  /** true: order actions only, no pushed channels. Default false. */
  readonly onlyTrade?: boolean;
  readonly timer?: TimerPort;
  /**
   * The venue's clock as the REST client estimates it, read for the login timestamp. Default: the
   * local clock (`timer`).
   */
  readonly serverClock?: ServerClock;
  readonly random?: JitterSource;
  /** Text `ping` interval; the venue closes connections idle for 30 s. Default 5 000 ms. */
  readonly pingIntervalMs?: number;
  /**
   * Ping intervals without any inbound frame (pong, reply, push) after which the open socket is
   * taken for dead: dropped (the stream `down`, pending requests failed) and reconnected. At least
   * 2. Default 3 (see `DEFAULT_HEARTBEAT`).
   */
  readonly silentPings?: number;
  /** Reply timeout of requests (and login). Default {@link DEFAULT_REQUEST_TIMEOUT_MS}. */
  readonly requestTimeoutMs?: number;
  /**
   * How long each connection attempt may take to open (TCP and WebSocket upgrade) before it is
   * abandoned and the reconnect backoff goes on. Default 10 000 ms.
   */
  readonly openTimeoutMs?: number;
  /**
   * Re-learns the venue's clock into `serverClock`, called before the next attempt after a login
   * refused in a way a timestamp off the venue's clock explains (7000, 60009): the live wiring
   * passes a signed REST read, whose reply's `Date` moves the shared clock whatever it answers.
   * Nothing else re-learns it while the socket is down (reconciliation runs only after a login),
   * so without it a stepped machine clock keeps every login refused. Its failure is logged and the
   * attempt goes on. Default: none.
   */
  readonly refreshServerClock?: () => Promise<unknown>;
  /** Default 1 s doubling to 30 s, never under `minMs`. */
  readonly reconnect?: ReconnectPolicy;
  /**
   * Limit of place orders (`PLACE_ORDER`, `place_order`) on this socket, queued when exceeded
   * (1200 per 60 s per public venue docs, which count places only); cancels and amendments are
   * not limited, though one sent while places are queued goes after them. null = none.
   */
  readonly orderRateLimit?: RateLimit | null;
  /** Request ids; default a counter. */
  readonly requestIds?: () => string;
  readonly logger?: Logger;
  readonly counters?: InboundCounters;
  /** Recorder tap: every inbound frame, raw. The login frame is outbound and never passed. */
  readonly onRaw?: (raw: RawInboundFrame) => void;
}

/** Options of one request on the private socket. */
export interface RequestOptions {
  /** Reply timeout, ms; default the client's `requestTimeoutMs`. */
  readonly timeoutMs?: number;
  /**
   * Takes the reply should it come after the timeout rejected the request, while the connection
   * lasts (the last 1 000 timed-out requests are remembered): a command whose outcome is being
   * looked up learns it from the venue's own answer. Without it such a reply is counted unmatched.
   */
  readonly onLateReply?: (late: LateReply) => void;
}

/** A (re)connection reached the logged-in state, or the connection dropped; `ts` is the venue's time (`serverClock`). */
export type ConnectionEvent =
  | { readonly kind: 'loggedIn'; readonly reconnect: boolean; readonly ts: number }
  | { readonly kind: 'dropped'; readonly reason: string; readonly ts: number };
