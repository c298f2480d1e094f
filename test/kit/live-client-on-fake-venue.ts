import type { UserEvent, VenueStatus } from '../../core/model/index.ts';
import type { LiveExecutionClient, LiveExecutionOptions, PrivateWsClient } from '../../core/venue/index.ts';
import { startedLiveClient } from './started-live-client.ts';
import { type FakeTimer, fakeTimer } from './venue-fake-timer.ts';
import type { FakeVenueHttp } from './venue-http-server.ts';
import {
  datedOn,
  type ReceivedRequest,
  type ScriptedReply,
  startFakeVenueHttp,
} from './venue-http-server.ts';
import { advanceUntil, waitFor } from './venue-wait.ts';
import { ok, page, WIRE_ACCOUNT, WIRE_ASSET, WIRE_POSITION } from './venue-wire-samples.ts';
import { type FakeVenueWs, startFakeVenueWs } from './venue-ws-server.ts';

/** The REST paths of a reconciliation's snapshot. */
export const SNAPSHOT_PATHS = [
  '/api/v1/trading/orders',
  '/api/v1/algo/openOrders',
  '/api/v1/trading/position',
  '/api/v1/trading/account',
] as const;

/** What the fake venue's REST side holds: it answers the snapshot and order lookups from it. */
export interface FakeVenueHoldings {
  /** Open orders, wire shape. */
  orders: Record<string, unknown>[];
  algoOrders: Record<string, unknown>[];
  positions: Record<string, unknown>[];
  /** The trading account, assets included. */
  account: Record<string, unknown>;
}

/** A live execution client on a fake REST and private-WebSocket venue, under a fake timer. */
export interface LiveClientOnFakeVenue {
  readonly http: FakeVenueHttp;
  readonly ws: FakeVenueWs;
  readonly timer: FakeTimer;
  /** The fake venue's own time (its replies' `Date`): the machine's (the fake timer) plus its offset. */
  venueNow(): number;
  readonly live: LiveExecutionClient;
  /** The client's private WebSocket. */
  readonly privateWs: PrivateWsClient;
  /** Every event the client emitted. */
  readonly events: UserEvent[];
  readonly holdings: FakeVenueHoldings;
  /** Answers a request before the holdings do (return undefined to let them answer). */
  special: (request: ReceivedRequest) => ScriptedReply | undefined;
  /** @returns the requests received on a path */
  calls(path: string): ReceivedRequest[];
  /** Stops the client and both servers. */
  close(): Promise<void>;
}

/**
 * Starts a fake venue holding one BTC position, USDT and the account, and a live execution client
 * logged in to it (reconnects after 100 ms of fake time, no REST retries). The venue's clock (the
 * `Date` of its replies, unless a reply sets its own) is the fake timer's plus `venueClockOffsetMs`.
 * The first reconciliation is done when this resolves.
 * @param options - execution client options to change
 * @param special - answers requests before the holdings do from the start (see `special`)
 * @param venueClockOffsetMs - how far the venue's clock is ahead of the machine's (negative: behind)
 * @returns the rig; close it in afterEach
 */
export async function liveClientOnFakeVenue(
  options: Partial<LiveExecutionOptions> = {},
  special: LiveClientOnFakeVenue['special'] = () => undefined,
  venueClockOffsetMs = 0,
): Promise<LiveClientOnFakeVenue> {
  const holdings: FakeVenueHoldings = {
    orders: [],
    algoOrders: [],
    positions: [WIRE_POSITION],
    account: { ...WIRE_ACCOUNT, assets: [WIRE_ASSET] },
  };
  const state = { special };
  const timer = fakeTimer(1_700_000_000_000);
  const venueNow = () => timer.now() + venueClockOffsetMs;
  const http = await startFakeVenueHttp(
    datedOn(venueNow, (request) => state.special(request) ?? answer(holdings, request)),
  );
  const ws = await startFakeVenueWs();
  const { rest, privateWs, live, events } = await startedLiveClient(http, ws, timer, options);
  return {
    http,
    ws,
    timer,
    venueNow,
    live,
    privateWs,
    events,
    holdings,
    get special() {
      return state.special;
    },
    set special(next) {
      state.special = next;
    },
    calls: (path) => http.requests.filter((r) => r.path === path),
    async close() {
      await live.stop();
      await rest.close();
      await ws.close();
      await http.close();
    },
  };
}

function answer(holdings: FakeVenueHoldings, request: ReceivedRequest): ScriptedReply {
  switch (`${request.method} ${request.path}`) {
    case 'GET /api/v1/trading/order': {
      const order = holdings.orders.find((o) => o.clientOrderId === request.query.clientOrderId);
      return { body: order === undefined ? { code: 401018, message: 'order not found' } : ok(order) };
    }
    case 'GET /api/v1/trading/orders':
      return { body: ok(holdings.orders) };
    case 'GET /api/v1/algo/openOrders':
      return { body: ok(holdings.algoOrders) };
    case 'GET /api/v1/trading/executions/pageable':
      return { body: ok(page([])) };
    case 'GET /api/v1/trading/position':
      return { body: ok(holdings.positions) };
    case 'GET /api/v1/trading/account':
      return { body: ok(holdings.account) };
    default:
      return { body: ok(null) };
  }
}

/**
 * Drops the private socket and lets the fake time run until the reconciliation after the login
 * (or gives up after 240 steps of 500 ms).
 * @param rig - the client on its fake venue
 * @returns the statuses the client reported meanwhile
 */
export async function dropAndReconcile(rig: LiveClientOnFakeVenue): Promise<VenueStatus[]> {
  const statuses: VenueStatus[] = [];
  rig.live.status.subscribe((s) => statuses.push(s));
  rig.ws.dropAll();
  await waitFor(() => statuses.some((s) => s.state === 'down'), 'the drop');
  await advanceUntil(rig.timer, () => statuses.at(-1)?.state === 'reconciled', 'reconciled', 500, 240).catch(
    () => undefined,
  );
  return statuses;
}
