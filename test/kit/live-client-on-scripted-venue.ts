import type { UserEvent } from '../../core/model/index.ts';
import type { LiveExecutionClient } from '../../core/venue/index.ts';
import { startedLiveClient } from './started-live-client.ts';
import { type FakeTimer, fakeTimer } from './venue-fake-timer.ts';
import {
  datedOn,
  type FakeVenueHttp,
  type ReceivedRequest,
  type ScriptedReply,
  startFakeVenueHttp,
} from './venue-http-server.ts';
import { ok, WIRE_ACCOUNT, WIRE_ASSET } from './venue-wire-samples.ts';
import { type FakeVenueWs, startFakeVenueWs } from './venue-ws-server.ts';

/** What the scripted venue's REST side answers from (wire shapes); a test changes it as it goes. */
export interface ScriptedVenueState {
  openOrders: Record<string, unknown>[];
  openAlgoOrders: Record<string, unknown>[];
  positions: Record<string, unknown>[];
  /** What the execution history lists (one page). */
  executions: Record<string, unknown>[];
  /** Orders an order lookup finds, by clientOrderId (any other: 401018). */
  ordersByRef: Map<string, Record<string, unknown>>;
  /** Algo orders an algo order lookup finds, by clientAlgoOrderId (any other: 401018). */
  algoByRef: Map<string, Record<string, unknown>>;
  /** Answers a request before the state does (undefined lets the state answer). */
  extra: (request: ReceivedRequest) => ScriptedReply | undefined;
}

/** A live execution client logged in to a scripted fake venue, under a fake timer. */
export interface ScriptedVenueClient {
  readonly http: FakeVenueHttp;
  readonly ws: FakeVenueWs;
  readonly timer: FakeTimer;
  readonly live: LiveExecutionClient;
  /** Every event the client emitted. */
  readonly events: UserEvent[];
  readonly state: ScriptedVenueState;
  /** Stops the client and both servers. */
  stop(): Promise<void>;
}

/**
 * Starts a scripted fake venue (REST answers from {@link ScriptedVenueState}, a private socket the
 * test pushes on) and a live execution client logged in to it: reconnects after 100 ms of fake
 * time, lookups of unacked or unlisted orders 200 ms apart, no REST retries unless asked for. The
 * first reconciliation is done when this resolves.
 * @param init - the venue's state at start (the rest empty)
 * @param opts - `defaultRestRetry`: the REST client's default retry policy (3 retries of a GET);
 *   `reconcileEveryMs`: the client's periodic reconciliation (default none)
 * @returns the client; stop it in afterEach
 */
export async function liveClientOnScriptedVenue(
  init: Partial<ScriptedVenueState> = {},
  opts: { readonly defaultRestRetry?: boolean; readonly reconcileEveryMs?: number } = {},
): Promise<ScriptedVenueClient> {
  const state: ScriptedVenueState = {
    openOrders: [],
    openAlgoOrders: [],
    positions: [],
    executions: [],
    ordersByRef: new Map(),
    algoByRef: new Map(),
    extra: () => undefined,
    ...init,
  };
  const timer = fakeTimer(1_700_000_000_000);
  const http = await startFakeVenueHttp(
    datedOn(timer.now, (request) => state.extra(request) ?? answer(state, request)),
  );
  const ws = await startFakeVenueWs();
  const { rest, live, events } = await startedLiveClient(http, ws, timer, {
    brokerClientId: 'acct-1',
    lookupSpacingMs: 200,
    ...(opts.defaultRestRetry === true ? { defaultRestRetry: true } : {}),
    ...(opts.reconcileEveryMs === undefined ? {} : { reconcileEveryMs: opts.reconcileEveryMs }),
  });
  return {
    http,
    ws,
    timer,
    live,
    events,
    state,
    async stop() {
      await live.stop();
      await rest.close();
      await ws.close();
      await http.close();
    },
  };
}

function answer(state: ScriptedVenueState, request: ReceivedRequest): ScriptedReply {
  const notFound = { body: { code: 401018, message: 'order not found' } };
  switch (`${request.method} ${request.path}`) {
    case 'GET /api/v1/trading/order': {
      const order = state.ordersByRef.get(request.query.clientOrderId ?? '');
      return order === undefined ? notFound : { body: ok(order) };
    }
    case 'GET /api/v1/trading/orders':
      return { body: ok(state.openOrders) };
    case 'GET /api/v1/algo/openOrders':
      return { body: ok(state.openAlgoOrders) };
    case 'GET /api/v1/algo/order': {
      const algo = state.algoByRef.get(request.query.clientAlgoOrderId ?? '');
      return algo === undefined ? notFound : { body: ok(algo) };
    }
    case 'GET /api/v1/trading/executions/pageable':
      return {
        body: ok({ page: 1, pageSize: 100, totalSize: state.executions.length, list: state.executions }),
      };
    case 'GET /api/v1/trading/position':
      return { body: ok(state.positions) };
    case 'GET /api/v1/trading/account':
      return { body: ok({ ...WIRE_ACCOUNT, assets: [WIRE_ASSET] }) };
    case 'GET /api/v1/trading/marginLoan/loan/config':
      return { body: ok([]) };
    default:
      return { body: ok(null) };
  }
}

/**
 * Holds the scripted venue's reply to algo order placements (POST /api/v1/algo/order) until
 * released, as a slow REST path would while the socket pushes what the venue did meanwhile.
 * @param client - the client on its scripted venue (its `extra` is replaced)
 * @param placed - the algo order the reply carries, wire shape (e.g. NEW)
 * @returns releases the held replies
 */
export function holdAlgoPlaceReply(client: ScriptedVenueClient, placed: Record<string, unknown>): () => void {
  let release: () => void = () => undefined;
  const replyHeld = new Promise<void>((resolve) => {
    release = resolve;
  });
  client.state.extra = (request) =>
    request.method === 'POST' && request.path === '/api/v1/algo/order'
      ? { body: ok(placed), heldUntil: replyHeld }
      : undefined;
  return () => release();
}
