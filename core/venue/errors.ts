import { venueErrorMeaning } from './error-codes.ts';

/** One problem found while decoding a venue message. */
export interface DecodeIssue {
  /** Dotted path of the field, e.g. `data.list[0].orderId`. */
  readonly path: string;
  readonly problem: string;
}

/**
 * A venue message did not have the shape Keel expects: a required field is missing or has the
 * wrong type. Names the first offending field path, and where the message came from.
 */
export class DecodeError extends Error {
  override readonly name = 'DecodeError';
  /** Path of the first offending field (`data.orderId`); empty for the message as a whole. */
  readonly path: string;
  /** What was being decoded (`GET /api/v1/trading/order reply`, `Orders channel`). */
  readonly where: string;
  readonly issues: readonly DecodeIssue[];

  /**
   * @param where - what was being decoded
   * @param issues - the problems, first one reported in the message
   */
  constructor(where: string, issues: readonly DecodeIssue[]) {
    const first = issues[0] ?? { path: '', problem: 'unreadable message' };
    super(`${where}: ${first.path === '' ? 'message' : first.path} ${first.problem}`);
    this.path = first.path;
    this.where = where;
    this.issues = issues;
  }
}

/** Details of a venue error. */
export interface VenueErrorInit {
  readonly code: number;
  readonly message: string;
  readonly method: string;
  readonly path: string;
  readonly httpStatus?: number;
}

/**
 * The venue answered with a non-success code (or an HTTP error without an envelope). Carries the
 * code, the venue's message, the request's method and path, and the meaning of the code where
 * the spec or the public venue docs give one.
 */
export class VenueError extends Error {
  override readonly name = 'VenueError';
  readonly code: number;
  readonly venueMessage: string;
  readonly method: string;
  readonly path: string;
  readonly meaning: string | undefined;
  readonly httpStatus: number | undefined;

  /**
   * @param init - code, message, method, path and optional HTTP status; code 0 without an HTTP
   *   status means no answer came at all (a network failure), which the message says
   */
  constructor(init: VenueErrorInit) {
    const unreachable = init.code === 0 && init.httpStatus === undefined;
    const meaning = unreachable ? undefined : venueErrorMeaning(init.code);
    super(
      unreachable
        ? `${init.method} ${init.path} could not reach the venue: ${init.message}`
        : `${init.method} ${init.path} failed with venue code ${init.code}` +
            `${meaning === undefined ? '' : ` (${meaning})`}: ${init.message}`,
    );
    this.code = init.code;
    this.venueMessage = init.message;
    this.method = init.method;
    this.path = init.path;
    this.meaning = meaning;
    this.httpStatus = init.httpStatus;
  }
}

/** A request got no answer in time (HTTP timeout or a WebSocket reply that never came). */
export class VenueTimeoutError extends Error {
  override readonly name = 'VenueTimeoutError';
  /** @param what - the request that timed out, e.g. `PLACE_ORDER id 7` */
  constructor(
    readonly what: string,
    readonly timeoutMs: number,
  ) {
    super(`${what} got no answer within ${timeoutMs} ms`);
  }
}

/** A request was refused by Keel before it was sent, because it breaks a rule of the spec. */
export class RequestRuleError extends Error {
  override readonly name = 'RequestRuleError';
  /**
   * @param field - the offending argument
   * @param rule - the rule, as a sentence
   */
  constructor(
    readonly field: string,
    readonly rule: string,
  ) {
    super(`${field}: ${rule}`);
  }
}

/**
 * The REST client was closed (the session stopping) before the request went out: it was not sent,
 * or, a GET whose attempt had failed, not retried. Its wait for a rate limit's room, an endpoint's
 * hold (a 429's `Retry-After`) or a retry's backoff ended with the close, so no timer of the
 * client's outlives it. Nothing was sent after the close: the venue did not act on it then.
 */
export class RestClientClosedError extends Error {
  override readonly name = 'RestClientClosedError';
  /**
   * @param what - the request, e.g. `GET /api/v1/trading/orders`
   * @param lastFailure - why its last attempt failed, when it was waiting to be retried
   */
  constructor(
    readonly what: string,
    readonly lastFailure?: string,
  ) {
    super(
      lastFailure === undefined
        ? `${what} was not sent: the REST client is closed`
        : `${what} was not retried: the REST client is closed (its last attempt failed: ${lastFailure})`,
    );
  }
}
