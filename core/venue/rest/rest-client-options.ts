import type { Logger } from 'pino';
import type { ServerClock } from '../server-clock.ts';
import type { ArrayEncoding, Signer } from '../signing.ts';
import type { JitterSource, TimerPort } from '../timer-port.ts';
import type { InboundCounters } from '../ws/inbound-counters.ts';
import type { RateLimitGroup } from './endpoints.ts';
import type { HttpTransport } from './http-transport.ts';
import type { RateLimit } from './rate-limiter.ts';
import type { RawRestReply, RetryPolicy } from './rest-call.ts';
import type { RestMutationLedger } from './rest-mutations.ts';

/** The spec's rate limits (per trading portfolio) and the public query-order limit. */
export const DEFAULT_RATE_LIMITS: Readonly<Record<RateLimitGroup, RateLimit | null>> = {
  historyOrders: { limit: 30, windowMs: 10_000 },
  historyPosition: { limit: 30, windowMs: 10_000 },
  statement: { limit: 100, windowMs: 60_000 },
  queryOrder: { limit: 1200, windowMs: 60_000 },
  other: null,
};

/** Options of the REST client. */
export interface RestClientOptions {
  /** The spec's `{base_url}`. */
  readonly baseUrl: string;
  readonly signer: Signer;
  /**
   * How a JSON body's array parameters are written into the signature (the docs do not say; see
   * `ArrayEncoding`; a query's arrays are signed as sent, comma-joined). Default `comma`.
   */
  readonly signatureArrays?: ArrayEncoding;
  /** Time and timers; real by default. */
  readonly timer?: TimerPort;
  /**
   * The venue's clock as estimated from replies, read for nonces; share it with the private
   * WebSocket of the same venue. Default: the client's own, on `timer`.
   */
  readonly serverClock?: ServerClock;
  /** Jitter of the retry backoff. */
  readonly random?: JitterSource;
  /** Per-request timeout, ms (default 10 000). */
  readonly timeoutMs?: number;
  /** Retries of idempotent GETs (default 3 retries, 200 ms doubling to 3 s). */
  readonly retry?: RetryPolicy;
  /**
   * The longest a 429's `Retry-After` holds the calls to its endpoint (the retry of a GET
   * included), ms; a longer one is cut to it. Default 60 000 (`DEFAULT_RETRY_AFTER_CAP_MS`).
   */
  readonly retryAfterCapMs?: number;
  /** Overrides of the rate limits per group; null = no limit. The client serves one portfolio. */
  readonly rateLimits?: Partial<Record<RateLimitGroup, RateLimit | null>>;
  /**
   * Where the deprecated legacy loan methods go: `detail` (default) routes them to the `_detail`
   * endpoints; `legacy` still calls the old paths.
   */
  readonly legacyLoanEndpoints?: 'detail' | 'legacy';
  /** pageSize used by the iterators when none is given (spec: not shown; Keel's choice 100). */
  readonly defaultPageSize?: number;
  /** Counts reply outcomes (shared with other clients if wanted); fresh counters by default. */
  readonly counters?: InboundCounters;
  /** Recorder tap: every raw reply body (never headers or keys). */
  readonly onRaw?: (raw: RawRestReply) => void;
  /**
   * Numbers the state-changing requests in a header, for a lockstep paper session's acks (see
   * `REST_SEQ_HEADER`); absent = no numbering (a real venue).
   */
  readonly mutations?: RestMutationLedger;
  readonly logger?: Logger;
  /** Replaces the undici transport (tests). */
  readonly transport?: HttpTransport;
}
