import type { IncomingMessage, ServerResponse } from 'node:http';
import type { InstrumentSpec } from '../../core/model/index.ts';
import {
  type ArrayEncoding,
  CLOCK_RATE_HEADER,
  ENDPOINTS,
  type EndpointName,
  REST_SEQ_HEADER,
} from '../../core/venue/index.ts';
import type { LoanOptions } from '../sim/index.ts';
import type { CommandName } from './command-table.ts';
import { badParameter, PaperApiError, success } from './envelope.ts';
import type { PaperFaults, RestFault } from './faults.ts';
import { isJsonObject } from './json-object.ts';
import type { PortfolioBook } from './portfolio-book.ts';
import type { RateLimits } from './rate-limits.ts';
import type { Params } from './request-fields.ts';
import { type ApiCredential, authenticate, authenticateHeaders } from './rest-auth.ts';
import { ACCOUNT_ROUTES } from './routes/account-routes.ts';
import { ALGO_LOAN_ROUTES } from './routes/algo-loan-routes.ts';
import type { RouteHandler } from './routes/route-context.ts';
import { TRADING_ROUTES } from './routes/trading-routes.ts';
import type { ServerTime } from './server-time.ts';

/** Every REST route of the spec, by endpoint name of core/venue's table. */
export const REST_ROUTES: Partial<Record<EndpointName, RouteHandler>> = {
  ...TRADING_ROUTES,
  ...ACCOUNT_ROUTES,
  ...ALGO_LOAN_ROUTES,
};

/** A Keel extension route (not part of the venue's protocol), e.g. the lockstep ack. */
export type ExtensionRoute = (book: PortfolioBook, params: Params) => unknown;

/** What the REST router needs from the venue. */
export interface RestRouterDeps {
  readonly credentials: ReadonlyMap<string, ApiCredential>;
  readonly books: ReadonlyMap<string, PortfolioBook>;
  readonly instruments: readonly InstrumentSpec[];
  readonly loans: LoanOptions | undefined;
  /** Whether the account reply lists the portfolio's assets. */
  readonly accountAssets: boolean;
  /** How array parameters are written into the signature text it verifies. */
  readonly signatureArrays: ArrayEncoding;
  /** Whether the feed is SYNTHETIC (said in the system status). */
  readonly syntheticFeed: boolean;
  readonly limits: RateLimits;
  readonly faults: PaperFaults;
  /** The wall clock (rate limits). */
  wallNow(): number;
  /** The server's clock: the `Date` header and the nonce check, and the rate it states. */
  readonly serverTime: ServerTime;
  /** The venue's virtual time. */
  virtualNow(): number;
  /**
   * Runs a state-changing command through the journal, once it reached the matching engine (after
   * the order-entry latency): the reply waits for it.
   */
  execute(book: PortfolioBook, name: CommandName, params: Params, where: string): Promise<unknown>;
  /** Keel's extension routes by `METHOD path`. */
  readonly extensions: ReadonlyMap<string, ExtensionRoute>;
  /**
   * A request was taken in (journaled, answered or refused), with its `REST_SEQ_HEADER` value:
   * a lockstep ack counting it may now release the next event.
   */
  restArrived?(header: string | readonly string[] | undefined): void;
}

const ROUTE_BY_KEY = new Map<string, EndpointName>(
  Object.entries(ENDPOINTS).map(([name, def]) => [`${def.method} ${def.path}`, name as EndpointName]),
);

/** The largest request body the venue reads: 1 MiB, far beyond any order or batch (Keel's choice). */
export const MAX_REST_BODY_BYTES = 1 << 20;

/**
 * A request's body, or undefined as soon as it is known to be longer than
 * {@link MAX_REST_BODY_BYTES} (its Content-Length, or the bytes read so far): no more is read.
 */
function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length'] ?? 0) > MAX_REST_BODY_BYTES) {
      resolve(undefined);
      return;
    }
    const chunks: Buffer[] = [];
    let bytes = 0;
    const onData = (chunk: Buffer): void => {
      bytes += chunk.length;
      if (bytes > MAX_REST_BODY_BYTES) {
        req.off('data', onData);
        req.pause();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * Answers without reading the rest of the request body, closing the connection after the answer
 * so the client's remaining bytes are never read.
 */
function sendAndClose(res: ServerResponse, status: number, body: unknown): void {
  res.setHeader('connection', 'close');
  send(res, status, body);
}

/**
 * A request's parameters: the query string of a GET, the JSON body of the others. A DELETE may
 * also carry them in its query string (the spec gives `DELETE /api/v1/algo/cancelAll` "optional
 * query filters"); a name given in both places is refused rather than one silently chosen.
 */
function paramsOf(method: string, url: URL, body: string, where: string): Params {
  const query = Object.fromEntries(url.searchParams);
  if (method === 'GET') return query;
  const fields = bodyOf(body, where);
  if (method !== 'DELETE') return fields;
  const twice = Object.keys(query).find((name) => Object.hasOwn(fields, name));
  if (twice !== undefined)
    throw badParameter(`${where} ${twice}`, 'is given in both the query string and the body');
  return { ...query, ...fields };
}

function bodyOf(body: string, where: string): Params {
  if (body.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(body);
    if (isJsonObject(parsed)) return parsed;
  } catch {
    // answered below as bad parameters
  }
  throw badParameter(`${where} body`, 'must be a JSON object');
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(body));
}

type Reply = (status: number, body: unknown) => void;

/**
 * How the request's answer goes out: normally, or lost after the request ran (a `lostReply`
 * fault): left unanswered, or with `close` the connection is destroyed without a reply.
 */
function replyOf(res: ServerResponse, fault: RestFault | undefined): Reply {
  if (fault?.kind !== 'lostReply') return (status, body) => send(res, status, body);
  return () => {
    if (fault.close === true) res.socket?.destroy();
  };
}

/**
 * Builds the node:http request handler of the paper venue's REST interface: the API key and nonce
 * (from the headers, before the body is read), a body of at most {@link MAX_REST_BODY_BYTES}
 * (else 413), injected faults, then the signature, rate limits and the route; every answer is the spec's envelope. The `Date`
 * header is the server's own clock (the one the nonce is checked against, see {@link ServerTime}),
 * not node's, with its rate in `CLOCK_RATE_HEADER` when it states one.
 * @param deps - the venue's state and services
 * @returns the request listener
 */
export function restHandler(deps: RestRouterDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    res.setHeader('date', new Date(deps.serverTime.now()).toUTCString());
    if (deps.serverTime.rate !== undefined) res.setHeader(CLOCK_RATE_HEADER, String(deps.serverTime.rate));
    let taken = false;
    const takenIn = (): void => {
      if (taken) return;
      taken = true;
      deps.restArrived?.(req.headers[REST_SEQ_HEADER]);
    };
    void handle(deps, req, res, takenIn)
      .catch((error: unknown) => {
        send(res, 500, { code: 40000, message: `system error: ${String(error)}`, data: null });
      })
      .finally(takenIn);
  };
}

/**
 * Serves one request; `takenIn` is called once a state-changing command is journaled (its reply
 * waits for the order-entry latency), else when the request is done.
 */
async function handle(
  deps: RestRouterDeps,
  req: IncomingMessage,
  res: ServerResponse,
  takenIn: () => void,
): Promise<void> {
  const method = req.method ?? 'GET';
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const where = `${method} ${url.pathname}`;
  // The API key and nonce are in the headers: a request failing them is answered before its body is read.
  try {
    authenticateHeaders(req.headers, deps.credentials, deps.serverTime.now());
  } catch (error) {
    if (!(error instanceof PaperApiError)) throw error;
    sendAndClose(res, error.httpStatus, error.envelope());
    return;
  }
  const body = await readBody(req);
  if (body === undefined) {
    sendAndClose(
      res,
      413,
      badParameter(`${where} body`, `is longer than ${MAX_REST_BODY_BYTES} bytes`).envelope(),
    );
    return;
  }
  const fault = deps.faults.takeRestFault(url.pathname, method);
  if (fault?.kind === 'timeout') return;
  if (fault?.kind === 'status') {
    send(res, fault.status ?? 503, {
      code: 50001,
      message: 'the service is unavailable (injected fault)',
      data: null,
    });
    return;
  }
  const reply = replyOf(res, fault);
  try {
    const name = ROUTE_BY_KEY.get(`${method} ${url.pathname}`);
    const extension = deps.extensions.get(`${method} ${url.pathname}`);
    const route = name === undefined ? undefined : REST_ROUTES[name];
    if (!route && !extension) throw new PaperApiError(400001, `bad parameters: no endpoint ${where}`, 404);
    const params = paramsOf(method, url, body, where);
    const credential = authenticate(
      req.headers,
      params,
      deps.credentials,
      deps.serverTime.now(),
      deps.signatureArrays,
    );
    const book = deps.books.get(credential.portfolioId);
    if (!book)
      throw new PaperApiError(2002, `the API key's portfolio ${credential.portfolioId} does not exist`, 401);
    if (extension) {
      reply(200, success(extension(book, params) ?? null));
      return;
    }
    deps.limits.take(book.portfolioId, ENDPOINTS[name as EndpointName].limit, deps.wallNow());
    const data = await (route as RouteHandler)({
      book,
      books: deps.books,
      params,
      where,
      instruments: deps.instruments,
      loans: deps.loans,
      accountAssets: deps.accountAssets,
      syntheticFeed: deps.syntheticFeed,
      now: deps.virtualNow,
      execute: (command) => {
        const done = deps.execute(book, command, params, where);
        takenIn();
        return done;
      },
    });
    reply(200, success(data ?? null));
  } catch (error) {
    if (error instanceof PaperApiError) {
      if (error.retryAfterSeconds !== undefined)
        res.setHeader('retry-after', String(error.retryAfterSeconds));
      reply(error.httpStatus, error.envelope());
      return;
    }
    throw error;
  }
}
