import { pino } from 'pino';
import { RestClientClosedError } from '../errors.ts';
import { ServerClock } from '../server-clock.ts';
import { type ArrayEncoding, DEFAULT_ARRAY_ENCODING, type RequestParams } from '../signing.ts';
import { realTimer } from '../timer-port.ts';
import type { PageWire } from '../wire/common.ts';
import { createInboundCounters, type InboundCounters } from '../ws/inbound-counters.ts';
import { ClosableSleeps } from './closable-sleeps.ts';
import { EndpointHolds } from './endpoint-holds.ts';
import {
  ENDPOINTS,
  type EndpointName,
  type EndpointReply,
  type PagedEndpointName,
  type RateLimitGroup,
} from './endpoints.ts';
import { undiciTransport } from './http-transport.ts';
import { paginate } from './paginate.ts';
import { type RateLimit, RateLimiter } from './rate-limiter.ts';
import { type RequestSlot, type RestCallContext, restCall } from './rest-call.ts';
import { DEFAULT_RATE_LIMITS, type RestClientOptions } from './rest-client-options.ts';
import { DEFAULT_RETRY_AFTER_CAP_MS } from './retry-after.ts';

type Query = object;

/**
 * Calls the venue's endpoints by name: signed requests, envelope decoding, typed errors, queued
 * rate limits, GET retries and paginated iterators. The REST client adds one typed method per
 * endpoint on top.
 */
export class RestEndpointCaller {
  private readonly ctx: RestCallContext;
  private readonly limiters = new Map<RateLimitGroup, RateLimiter>();
  private readonly holds: EndpointHolds;
  private readonly pageSize: number;

  /** @param options - base address, signer and policies */
  constructor(options: RestClientOptions) {
    const timer = options.timer ?? realTimer();
    const logger = options.logger ?? pino({ name: 'keel.venue.rest', level: 'warn' });
    this.ctx = {
      transport: options.transport ?? undiciTransport(options.baseUrl),
      signer: options.signer,
      signatureArrays: options.signatureArrays ?? DEFAULT_ARRAY_ENCODING,
      timer,
      sleeps: new ClosableSleeps(timer),
      clock: options.serverClock ?? new ServerClock(timer, logger),
      random: options.random ?? { next: () => 0.5 },
      timeoutMs: options.timeoutMs ?? 10_000,
      retry: options.retry ?? { maxRetries: 3, baseMs: 200, capMs: 3_000 },
      retryAfterCapMs: options.retryAfterCapMs ?? DEFAULT_RETRY_AFTER_CAP_MS,
      logger,
      counters: options.counters ?? createInboundCounters(),
      ...(options.onRaw === undefined ? {} : { onRaw: options.onRaw }),
      ...(options.mutations === undefined ? {} : { mutations: options.mutations }),
    };
    const limits = { ...DEFAULT_RATE_LIMITS, ...options.rateLimits };
    for (const [group, rate] of Object.entries(limits) as Array<[RateLimitGroup, RateLimit | null]>) {
      if (rate !== null) this.limiters.set(group, new RateLimiter(rate, timer));
    }
    this.pageSize = options.defaultPageSize ?? 100;
    this.holds = new EndpointHolds(timer, this.ctx.sleeps);
  }

  /** How array parameters are written into the signatures of this client's requests. */
  get signatureArrays(): ArrayEncoding {
    return this.ctx.signatureArrays;
  }

  /**
   * Calls an endpoint of {@link ENDPOINTS} by name; its rate limiter lets each request through,
   * every retry included, and none while the venue asked to wait (a 429's `Retry-After`).
   * @param name - the endpoint
   * @param params - query (GET) or body
   * @returns the decoded reply data
   * @throws VenueError, DecodeError or VenueTimeoutError (see restCall)
   */
  async call<N extends EndpointName>(name: N, params: Query = {}): Promise<EndpointReply<N>> {
    const def = ENDPOINTS[name];
    return (await restCall(this.ctx, def, params as RequestParams, this.slotOf(name))) as EndpointReply<N>;
  }

  /**
   * An endpoint's turn: while it is not held, a slot of its rate limit as before any 429 (no wait
   * at all without a limit, so the request is written in the caller's tick). A held one waits out
   * the hold first, then takes room; room taken while another hold began is given up and taken
   * after that one, since the venue said wait and a slot unused only leaves the window emptier. A
   * request already queued for room when a hold begins goes out once granted (a GET refused again
   * then waits the hold for its retry).
   */
  private slotOf(name: EndpointName): RequestSlot {
    const limiter = this.limiters.get(ENDPOINTS[name].limit);
    const holds = this.holds;
    const afterHold = async (): Promise<void> => {
      do {
        await holds.wait(name);
        await limiter?.acquire();
      } while (holds.isHeld(name));
    };
    return {
      take: () => (holds.isHeld(name) ? afterHold() : limiter?.acquire()),
      hold: (ms) => holds.hold(name, ms),
    };
  }

  /**
   * Iterates every entry of a paginated endpoint.
   * @param name - a paged endpoint
   * @param query - filters; page and pageSize are managed by the iterator
   * @param pageSize - entries per page; default the client's
   * @returns an async iterator over the list entries
   * @example
   * for await (const order of rest.pages('getOrderHistory', { filterExecuted: true })) { ... }
   */
  pages<N extends PagedEndpointName>(
    name: N,
    query: Query = {},
    pageSize = this.pageSize,
  ): AsyncGenerator<EndpointReply<N> extends PageWire<infer T> ? T : never> {
    return paginate((page) => this.call(name, { ...query, page, pageSize }) as Promise<never>);
  }

  /**
   * The venue's clock as the replies' `Date` headers tell it (the one nonces are read from; shared
   * with the private WebSocket when the options gave one): the live adapter stamps the events it
   * makes itself on it, so they carry the venue's time, not the machine's.
   */
  get serverClock(): ServerClock {
    return this.ctx.clock;
  }

  /** Reply outcomes: `frames` replies read, `replies` decoded, `control` venue error codes, `malformed` undecodable. */
  get counters(): InboundCounters {
    return this.ctx.counters;
  }

  /** Requests waiting in a rate limiter, by group. @returns the queue length per group */
  queuedByGroup(): Readonly<Partial<Record<RateLimitGroup, number>>> {
    return Object.fromEntries([...this.limiters].map(([group, limiter]) => [group, limiter.queued]));
  }

  /**
   * Closes the client: the requests not yet sent, waiting for room in a rate limit, for an
   * endpoint's hold (a 429's `Retry-After`) or for a GET's retry, end at once with a
   * RestClientClosedError, their timers cancelled, so none holds the process up after the close;
   * a call made afterwards fails so at once. The requests under way may finish (a GET failing
   * then is not retried) before the connection pool closes.
   * @param withinMs - how long the requests under way may take; then they are ended. Default no
   *   limit.
   * @returns when closed
   */
  close(withinMs?: number): Promise<void> {
    const closed = new RestClientClosedError('a venue REST request');
    this.ctx.sleeps.close(closed);
    for (const limiter of this.limiters.values()) limiter.close(closed);
    return this.ctx.transport.close(withinMs);
  }
}
