import type { Logger } from 'pino';
import { NONCE_OUT_OF_RANGE, SUCCESS_CODES } from '../error-codes.ts';
import { DecodeError, RestClientClosedError, VenueError, VenueTimeoutError } from '../errors.ts';
import { clockRateOf, type ServerClock } from '../server-clock.ts';
import { type ArrayEncoding, paramText, type RequestParams, type Signer, signRequest } from '../signing.ts';
import { backoffDelay, type JitterSource, type TimerPort } from '../timer-port.ts';
import { envelopeSchema } from '../wire/common.ts';
import { decodeWire, parseJson } from '../wire/decode.ts';
import type { InboundCounters } from '../ws/inbound-counters.ts';
import type { ClosableSleeps } from './closable-sleeps.ts';
import type { EndpointDef } from './endpoints.ts';
import type { HttpResponse, HttpTransport } from './http-transport.ts';
import { decodePageEntries } from './page-entries.ts';
import { REST_SEQ_HEADER, type RestMutationLedger } from './rest-mutations.ts';
import { retryAfterMs } from './retry-after.ts';

/** Retry policy of idempotent GETs: how many retries and the backoff. */
export interface RetryPolicy {
  readonly maxRetries: number;
  readonly baseMs: number;
  readonly capMs: number;
}

/** A raw inbound REST body handed to the recorder tap (no headers, no keys). */
export interface RawRestReply {
  readonly source: 'rest';
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly body: string;
  readonly recvTs: number;
}

/** What one REST call needs besides the endpoint and parameters. */
export interface RestCallContext {
  readonly transport: HttpTransport;
  readonly signer: Signer;
  /** How a JSON body's array parameters are written into the signature (`venue.signing.arrays`). */
  readonly signatureArrays: ArrayEncoding;
  readonly timer: TimerPort;
  /**
   * The client's timed waits (a retry's backoff here; the endpoints' holds share them): closed
   * with the client, which ends the requests still waiting, unsent.
   */
  readonly sleeps: ClosableSleeps;
  /** The venue's clock as estimated from replies: the nonce is read from it. */
  readonly clock: ServerClock;
  readonly random: JitterSource;
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  /** The longest wait a 429's `Retry-After` holds the endpoint for, ms. */
  readonly retryAfterCapMs: number;
  readonly logger: Logger;
  /**
   * Reply outcomes: `replies` for decoded successes, `malformed` for undecodable bodies and for
   * each entry left out of a page decoded entry by entry.
   */
  readonly counters: InboundCounters;
  readonly onRaw?: (raw: RawRestReply) => void;
  /** Numbers the state-changing requests (a lockstep paper session); absent = no numbering. */
  readonly mutations?: RestMutationLedger;
}

class RetryableFailure extends Error {}

/**
 * Failures of a transport that was closed (the session stopping): every retry would fail alike,
 * and its backoff would only hold the stop up.
 */
const CLOSED_CLIENT_CODES = new Set(['UND_ERR_CLOSED', 'UND_ERR_DESTROYED']);

/** Where a request's turn to go out is taken: the endpoint's rate limit and its holds. */
export interface RequestSlot {
  /**
   * Takes the request's turn: room in the endpoint's rate limit, once the endpoint is not held.
   * @returns undefined when it may go at once (so it is written in the same tick, as a lockstep
   *   paper session needs), else when it may go; refused when the client closes meanwhile
   */
  take(): Promise<void> | undefined;
  /** Holds the endpoint's further calls for `ms` (the venue answered 429 with `Retry-After`). */
  hold(ms: number): void;
}

/** What made an attempt fail, as the retry warning and the final error say it. */
function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A request the client's close ended before it went out; `failed` is its last attempt's failure. */
function closedError(def: EndpointDef, failed: unknown): RestClientClosedError {
  return new RestClientClosedError(
    `${def.method} ${def.path}`,
    failed === undefined ? undefined : reasonOf(failed),
  );
}

/**
 * Waits out one of a request's waits (its backoff, its turn).
 * @throws RestClientClosedError when the client's close ended the wait
 */
async function waitUnlessClosed(
  ctx: RestCallContext,
  def: EndpointDef,
  failed: unknown,
  wait: Promise<void>,
): Promise<void> {
  try {
    await wait;
  } catch (error) {
    throw ctx.sleeps.closed ? closedError(def, failed) : error;
  }
}

/**
 * How an array is written into a query string: its items comma-joined (Keel's choice, the public
 * docs show no array in a query). A query value reaches the venue as text, so its signature covers
 * that text as sent, whatever `venue.signing.arrays` says of a JSON body's arrays.
 */
const QUERY_ARRAYS: ArrayEncoding = 'comma';

function queryString(params: RequestParams): string {
  const search = new URLSearchParams();
  for (const key of Object.keys(params).sort()) {
    const value = params[key];
    if (value !== undefined && value !== null) search.append(key, paramText(value, QUERY_ARRAYS));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

function sendable(params: RequestParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== null) out[key] = value;
  return out;
}

function isNetworkFailure(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return (
    typeof code === 'string' &&
    !CLOSED_CLIENT_CODES.has(code) &&
    (code.startsWith('UND_ERR') || code.startsWith('E'))
  );
}

type Envelope = ReturnType<typeof envelopeSchema.parse>;

/** The reply's venue envelope. @throws RetryableFailure (429, 5xx), VenueError (a 4xx without one), DecodeError */
function envelopeOf(def: EndpointDef, response: HttpResponse): Envelope {
  const where = `${def.method} ${def.path} reply`;
  if (response.status === 429 || response.status >= 500) {
    throw new RetryableFailure(`${where}: HTTP ${response.status}`);
  }
  try {
    return decodeWire(envelopeSchema, parseJson(response.body, where), where);
  } catch (error) {
    if (response.status >= 400) {
      throw new VenueError({
        code: response.status,
        message: `HTTP ${response.status} without a venue envelope`,
        method: def.method,
        path: def.path,
        httpStatus: response.status,
      });
    }
    throw error;
  }
}

/**
 * The envelope's decoded data; a page of an endpoint decoded entry by entry (`def.entries`) keeps
 * its good entries, each bad one logged and counted as malformed.
 * @throws VenueError for a code other than success, DecodeError
 */
function dataOf(ctx: RestCallContext, def: EndpointDef, envelope: Envelope, status: number): unknown {
  if (!SUCCESS_CODES.has(envelope.code)) {
    throw new VenueError({
      code: envelope.code,
      message: envelope.message ?? envelope.msg ?? '',
      method: def.method,
      path: def.path,
      httpStatus: status,
    });
  }
  const where = `${def.method} ${def.path} reply`;
  if (def.entries === undefined) return decodeWire(def.reply, envelope.data, where, ['data']);
  const { page, problems } = decodePageEntries(envelope.data, def.entries, where);
  for (const problem of problems) {
    ctx.counters.malformed++;
    ctx.logger.warn(
      { path: def.path, problem },
      'malformed entry of a venue REST reply left out; the others kept',
    );
  }
  return page;
}

/**
 * A 429's `Retry-After` (seconds or an HTTP-date, read against the reply's `Date`, else the
 * venue's clock), capped: how long the endpoint is to be held, or undefined when it named none.
 */
function retryAfterOf(ctx: RestCallContext, response: HttpResponse): number | undefined {
  if (response.status !== 429) return undefined;
  const stamped = response.date === undefined ? Number.NaN : Date.parse(response.date);
  const wait = retryAfterMs(response.retryAfter, Number.isFinite(stamped) ? stamped : ctx.clock.now());
  return wait === undefined ? undefined : Math.min(wait, ctx.retryAfterCapMs);
}

/**
 * Sends one signed REST request and decodes its reply. GETs are idempotent and retried with
 * backoff on HTTP 5xx, 429, network failures and timeouts (not once the transport is closed); POST, PUT and DELETE never are (a
 * retried order could be placed twice). One exception for every method: a 7000 (nonce out of
 * range) signed on a server-clock estimate that has moved since (its own reply or another's moved
 * it) is sent once more at once with a nonce from the new estimate; the venue refused it at
 * authentication, so it did not run. Every request sent, a retry or a resend included, first
 * takes its turn (`slot`): a slot of the endpoint's rate limit, so retries never exceed it, once
 * the endpoint is not held. A 429 with `Retry-After` holds the endpoint that long (capped), for
 * its retry and every other call to it; a POST, PUT or DELETE answered so is still not re-sent.
 * Once the client is closed no request goes out: one waiting for its turn or its backoff then is
 * ended at once, its timer cancelled, and so is one whose attempt fails after the close.
 * @param ctx - transport, signer, timer, policy
 * @param def - the endpoint
 * @param params - query (GETs and endpoints that name query parameters) or body (others)
 * @param slot - the endpoint's rate limit and holds
 * @returns the decoded `data` of the reply
 * @throws VenueError when the venue answers a non-success code (or retries run out)
 * @throws DecodeError when the reply misses or mistypes a field (of a page decoded entry by entry,
 *   a field of the page itself)
 * @throws VenueTimeoutError when no answer came in time (after retries, for GETs)
 * @throws RestClientClosedError when the client was closed before the request (or its retry) went out
 */
export async function restCall(
  ctx: RestCallContext,
  def: EndpointDef,
  params: RequestParams,
  slot: RequestSlot,
): Promise<unknown> {
  const isGet = def.method === 'GET';
  const inQuery = isGet || def.params === 'query';
  let maxAttempts = isGet ? ctx.retry.maxRetries + 1 : 1;
  const clean = sendable(params);
  let lastError: unknown;
  let failures = 0;
  let resigned = false;
  // Numbered when called, before any wait for its turn, so the count a lockstep ack carries
  // covers a request still waiting on the rate limit; a resend carries the same number.
  const seq = isGet || ctx.mutations === undefined ? undefined : ctx.mutations.next();
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    const failed = lastError;
    lastError = undefined;
    // Once the client is closed nothing goes out, a retry or a resend included.
    if (ctx.sleeps.closed) throw closedError(def, failed);
    if (failed !== undefined) {
      const delay = backoffDelay(failures - 1, ctx.retry.baseMs, ctx.retry.capMs, ctx.random);
      ctx.logger.warn({ path: def.path, attempt, delay, reason: reasonOf(failed) }, 'retrying venue GET');
      await waitUnlessClosed(ctx, def, failed, ctx.sleeps.sleep(delay));
    }
    // Signed after the wait for a slot, so the nonce is not stale when it goes out.
    const turn = slot.take();
    if (turn !== undefined) await waitUnlessClosed(ctx, def, failed, turn);
    const signedWith = ctx.clock.offsetMs;
    const headers: Record<string, string> = {
      ...signRequest(ctx.signer, clean, ctx.clock.nowSeconds(), inQuery ? QUERY_ARRAYS : ctx.signatureArrays),
      'content-type': 'application/json',
    };
    if (seq !== undefined) headers[REST_SEQ_HEADER] = seq;
    try {
      const sentMs = ctx.timer.now();
      const response = await ctx.transport.send({
        method: def.method,
        path: inQuery ? def.path + queryString(clean) : def.path,
        headers,
        ...(inQuery ? {} : { body: JSON.stringify(clean) }),
        timeoutMs: ctx.timeoutMs,
      });
      const receivedMs = ctx.timer.now();
      ctx.onRaw?.({
        source: 'rest',
        method: def.method,
        path: def.path,
        status: response.status,
        body: response.body,
        recvTs: receivedMs,
      });
      ctx.counters.frames++;
      const holdMs = retryAfterOf(ctx, response);
      if (holdMs !== undefined) {
        slot.hold(holdMs);
        ctx.logger.warn(
          { path: def.path, holdMs, retryAfter: response.retryAfter },
          'venue rate limit: holding calls to the endpoint as its Retry-After asks',
        );
      }
      const envelope = envelopeOf(def, response);
      // Only the venue's own answers tell its clock: a proxy's page or an overload reply may not.
      ctx.clock.observe(response.date, sentMs, receivedMs, clockRateOf(response.clockRate));
      const data = dataOf(ctx, def, envelope, response.status);
      ctx.counters.replies++;
      return data;
    } catch (error) {
      if (error instanceof DecodeError) {
        ctx.counters.malformed++;
        ctx.logger.warn({ path: def.path, problem: error.message }, 'malformed venue REST reply');
        throw error;
      }
      if (error instanceof VenueError) {
        ctx.counters.control++;
        // Signed on an estimate that has moved since (this reply or another's): sign again.
        if (error.code === NONCE_OUT_OF_RANGE && !resigned && ctx.clock.offsetMs !== signedWith) {
          resigned = true;
          maxAttempts++;
          continue;
        }
        throw error;
      }
      lastError = error;
      if (!(error instanceof RetryableFailure) && !isNetworkFailure(error)) throw error;
      failures++;
    }
  }
  const message = reasonOf(lastError);
  if (/timeout/i.test(message) || (lastError as { code?: string }).code?.includes('TIMEOUT')) {
    throw new VenueTimeoutError(`${def.method} ${def.path}`, ctx.timeoutMs);
  }
  const status = Number(/HTTP (\d+)/.exec(message)?.[1] ?? 0);
  throw new VenueError({
    code: status,
    message: `${message}${failures > 1 ? ` (after ${failures} attempts)` : ''}`,
    method: def.method,
    path: def.path,
    ...(status === 0 ? {} : { httpStatus: status }),
  });
}
