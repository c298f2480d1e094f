import { z } from 'zod';
import { Secret } from '../../core/model/index.ts';
import {
  ARRAY_ENCODINGS,
  DEFAULT_HEARTBEAT,
  DEFAULT_RECONCILE_EVERY_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
} from '../../core/venue/index.ts';
import { hasUserinfo } from './venue-url.ts';

/** Path of the private (User Data and order entry) WebSocket, per public venue docs. */
export const PRIVATE_WS_PATH = '/v1/private';
/** Path of the public market-data WebSocket, per public venue docs. */
export const MARKET_DATA_WS_PATH = '/marketdata/v2/public';

/**
 * A user or password in a venue URL is refused: Keel sends neither (the REST transport connects
 * to the origin), and the URL is printed in logs, reports and recording headers.
 */
const NO_USERINFO = {
  error:
    'may not name a user or password (user:pass@host): Keel never sends them, and venue URLs are printed',
};
const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
  .refine((url) => !hasUserinfo(url), NO_USERINFO)
  .refine((url) => !URL.canParse(url) || (new URL(url).search === '' && new URL(url).hash === ''), {
    error:
      'may not hold a query (?...) or fragment (#...): it is the base the API paths are appended to, and they would be dropped',
  });
const wsUrl = z
  .url({ protocol: /^wss?$/, error: 'must be a ws:// or wss:// URL' })
  .refine((url) => !hasUserinfo(url), NO_USERINFO);
/**
 * The bounds of `venue.wsOpenTimeoutMs`, as its error says them (a value of another type, or not
 * whole, gets the loader's own sentence, which names what it found): below 1 s a slow but healthy
 * upgrade (TLS across the world) is abandoned for ever; far above, a hung one leaves the stream
 * down for minutes, which the deadline exists to prevent.
 */
const WS_OPEN_TIMEOUT_RULE = 'must be a whole number of ms from 1000 (1 s) to 120000 (2 min)';

/**
 * The bounds of `venue.heldCommandWaitMs`, as its error says them: below 1 s a cancel overtakes
 * an ack that is only late (the venue refuses it as unknown and it is held again); far above, a
 * kill switch's cancel of an order whose ack was lost is kept off the venue for minutes.
 */
const HELD_COMMAND_WAIT_RULE = 'must be a whole number of ms from 1000 (1 s) to 60000 (1 min)';

/**
 * The bounds of `venue.reconcileEveryMs`: below 1 s the REST reads would crowd the rate limit;
 * above 60 s a lost fill may fall out of the execution catch-up's 60 s look-back.
 */
const RECONCILE_EVERY_RULE = 'must be 0 (none) or a whole number of ms from 1000 (1 s) to 60000 (1 min)';

/**
 * The bounds of `venue.privatePingMs`: the venue closes a private connection idle for 30 s, so a
 * ping must go out well within that; below 1 s pings would be most of the traffic.
 */
const PRIVATE_PING_RULE =
  'must be a whole number of ms from 1000 (1 s) to 25000 (25 s): the venue closes a private connection idle for 30 s';

/**
 * The bounds of `venue.marketDataPingMs`: below 1 s pings would be most of the traffic; above a
 * minute a dead market socket would be found only after several minutes of stale prices.
 */
const MARKET_DATA_PING_RULE =
  'must be a whole number of ms from 1000 (1 s) to 60000 (1 min): the stall watchdog counts in these intervals';

/**
 * The bounds of `venue.privateSilentPings` and `venue.marketDataSilentPings`: with 1 the pong of
 * the latest ping, a little late, races the verdict and a healthy socket would be dropped.
 */
const SILENT_PINGS_RULE =
  'must be a whole number from 2: with 1, a pong that comes a little late would drop a healthy socket';

/**
 * The bounds of `venue.privateRequestTimeoutMs`: below 1 s a healthy venue's answer across the
 * world is taken for lost; far above, a lost reply leaves the command's outcome unknown, and its
 * lookups unstarted, for minutes.
 */
const PRIVATE_REQUEST_TIMEOUT_RULE = 'must be a whole number of ms from 1000 (1 s) to 60000 (1 min)';

/** The default of `venue.adlRankRefreshMs` (Keel's choice): every 10 s, besides after each position change. */
export const DEFAULT_ADL_RANK_REFRESH_MS = 10_000;

/**
 * The default of `venue.heldCommandWaitMs`: twice the private socket's reply timeout, so a place's
 * late ack still comes before a held modify or cancel goes, within the key's bounds (10 s at least,
 * as before the timeout was configurable; 1 min at most).
 * @param requestTimeoutMs - `venue.privateRequestTimeoutMs`
 * @returns the wait, ms
 */
function heldCommandWaitFor(requestTimeoutMs: number): number {
  return Math.min(60_000, Math.max(10_000, 2 * requestTimeoutMs));
}

const secret = z
  .string()
  .min(1)
  .transform((value) => new Secret(value));

/**
 * Derives a WebSocket URL on the REST host: https -> wss, http -> ws, with the given path.
 * @param restUrl - the REST base URL
 * @param path - the WebSocket path
 * @returns the WebSocket URL
 */
export function deriveWsUrl(restUrl: string, path: string): string {
  const url = new URL(restUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.pathname = path;
  url.search = '';
  return url.toString();
}

/**
 * How to reach the venue (live mode, or an external paper venue). `apiKey` and `apiSecret` must
 * be `${ENV_VAR}` references in the YAML (the loader refuses inline credentials) and become
 * {@link Secret}s. The WebSocket URLs default to the REST host with the public venue's paths.
 */
export const venueConfigSchema = z
  .strictObject({
    restUrl: httpUrl.describe(
      'REST base URL of the venue ({base_url} of the spec); no user:pass@ and no query. Printed URLs show query values as [redacted].',
    ),
    privateWsUrl: wsUrl.optional().describe('Private WebSocket URL; default the REST host with /v1/private.'),
    marketDataWsUrl: wsUrl
      .optional()
      .describe('Market-data WebSocket URL; default the REST host with /marketdata/v2/public.'),
    apiKey: secret.describe(
      `API key as an \${ENV_VAR} reference (environment, .env, or the file ENV_VAR_FILE names), never the key itself.`,
    ),
    apiSecret: secret.describe(
      `API secret as an \${ENV_VAR} reference (environment, .env, or the file ENV_VAR_FILE names), never the secret itself.`,
    ),
    brokerClientId: z
      .string()
      .min(1)
      .optional()
      .describe(
        "brokerClientId sent with every US-equity order (the spec's PLACE_ORDER: the client account the order is for). Keel's choice: absent = portfolios.main, which is also the embedded paper venue's account.",
      ),
    restRatePerSec: z
      .number()
      .positive()
      .default(10)
      .describe(
        "Requests per second Keel allows itself on REST endpoints without a limit of their own (order and position history, statements and order queries keep theirs); calls over it wait their turn (Keel's choice: the spec shows no limit).",
      ),
    marketDataPingMs: z
      .number()
      .int()
      .min(1_000, { error: MARKET_DATA_PING_RULE })
      .max(60_000, { error: MARKET_DATA_PING_RULE })
      .default(DEFAULT_HEARTBEAT.intervalMs)
      .describe(
        'Interval of the market-data heartbeat ({"ping"} frames), ms; the stall watchdog counts in these intervals, so at most a minute (Keel\'s choice: a dead market socket is then found within minutes, not hours).',
      ),
    marketDataSilentPings: z
      .number()
      .int()
      .min(2, { error: SILENT_PINGS_RULE })
      .default(DEFAULT_HEARTBEAT.silentIntervals)
      .describe(
        "Heartbeat intervals without any market-data frame (data or pong) after which the socket is taken for stalled, counted from its last frame: a warning, a drop and reconnect with resubscription, a gap and a market 'down' status to strategies (Keel's choice: 3, so 15 s at the default interval).",
      ),
    privatePingMs: z
      .number()
      .int()
      .min(1_000, { error: PRIVATE_PING_RULE })
      .max(25_000, { error: PRIVATE_PING_RULE })
      .default(DEFAULT_HEARTBEAT.intervalMs)
      .describe(
        "Interval of the private WebSocket's heartbeat (text ping frames), ms; its silence watchdog counts in these intervals (Keel's choice; the venue closes a connection idle for 30 s).",
      ),
    privateSilentPings: z
      .number()
      .int()
      .min(2, { error: SILENT_PINGS_RULE })
      .default(DEFAULT_HEARTBEAT.silentIntervals)
      .describe(
        'Ping intervals without any private WebSocket frame (pong, reply or push), counted from its last frame, after which the open socket is taken for dead: a warning, the private stream down (/readyz 503, keel_venue_connected{stream="private"} 0, new orders denied, pending commands looked up) and a reconnect with a fresh reconciliation (Keel\'s choice: 3, so 15 s at the default interval).',
      ),
    privateRequestTimeoutMs: z
      .number()
      .int()
      .min(1_000, { error: PRIVATE_REQUEST_TIMEOUT_RULE })
      .max(60_000, { error: PRIVATE_REQUEST_TIMEOUT_RULE })
      .default(DEFAULT_REQUEST_TIMEOUT_MS)
      .describe(
        "How long a private WebSocket request (an order-entry command, the login) waits for its reply, ms; then the command is taken as unanswered and its outcome looked up, and when nothing at all came on the socket since the command went out, the socket is pinged and dropped unless a frame comes within privatePingMs (Keel's choice). A reply that comes later still settles a place order. Raise it for a venue that is slow to answer; heldCommandWaitMs follows it unless set.",
      ),
    wsOpenTimeoutMs: z
      .number()
      .int()
      .min(1_000, { error: WS_OPEN_TIMEOUT_RULE })
      .max(120_000, { error: WS_OPEN_TIMEOUT_RULE })
      .default(10_000)
      .describe(
        "How long each connection attempt of the private and market-data WebSockets may take to open (TCP and WebSocket upgrade), ms; an attempt not open by then is abandoned and the reconnect backoff goes on (Keel's choice).",
      ),
    signing: z
      .strictObject({
        arrays: z
          .enum(ARRAY_ENCODINGS)
          .default('comma')
          .describe(
            'How an array parameter of a JSON body (symList of DELETE /api/v1/trading/positions, clientOrderIds of DELETE /api/v1/trading/cancelAll) is written into the text the REST signature covers: comma joins the items (a,b), json writes the array as JSON (["a","b"]), brackets as a bracketed list ([a, b]). The public venue docs do not say (Keel\'s choice: comma); if the venue answers 2000 (bad signature) only on such requests, try another. An array in a query string (syms and portfolioIds of GET /api/v1/broker/feeRate) is sent as comma-joined items and signed as that text, whatever this says. `keel venue --signature-arrays` verifies with one, to rehearse a mismatch.',
          ),
      })
      .prefault({})
      .describe('How Keel signs REST requests where the public venue docs leave it open.'),
    adlRankRefreshMs: z
      .number()
      .int()
      .min(0)
      .max(3_600_000)
      .refine((ms) => ms === 0 || ms >= 1_000, {
        error: 'adlRankRefreshMs is 0 (never) or 1000 to 3600000 ms',
      })
      .default(DEFAULT_ADL_RANK_REFRESH_MS)
      .describe(
        "How often the ADL rank of every open perpetual position is read (GET /api/v1/adl/rank; the venue pushes none), ms, for ctx.adlRank() and the positions strategies see; a sym's rank is also read each time one of its positions changes. 0 = never: ctx.adlRank() stays 0, as risk-guard's ADL cut then never acts. Keel's choice: 10000, from 1000 to 3600000. The embedded paper venue needs none: its position pushes state the rank its sim gives them.",
      ),
    heldCommandWaitMs: z
      .number()
      .int()
      .min(1_000, { error: HELD_COMMAND_WAIT_RULE })
      .max(60_000, { error: HELD_COMMAND_WAIT_RULE })
      .optional()
      .describe(
        "How long a modify or cancel of an order whose place the venue has not answered waits for that answer (or the lookups' verdict on a lost ack) before it is sent anyway and logged at warn, ms. Default: twice privateRequestTimeoutMs, at least 10000 and at most 60000 (Keel's choice: a late ack still comes first, while a kill switch's cancel is not kept off the venue for the lookups' 30 s).",
      ),
    reconcileEveryMs: z
      .number()
      .int()
      .min(0, { error: RECONCILE_EVERY_RULE })
      .max(60_000, { error: RECONCILE_EVERY_RULE })
      .refine((ms) => ms === 0 || ms >= 1_000, { error: RECONCILE_EVERY_RULE })
      .default(DEFAULT_RECONCILE_EVERY_MS)
      .describe(
        "How often Keel reconciles while the private stream is up, ms; 0 for never: the venue's open orders, positions and account are read and the executions of the last minute listed, so a User Data push the venue lost without closing the socket (a fill, an order's new state) is caught up within this period (Keel's choice: 30000; Hummingbot polls order status, NautilusTrader checks open orders, for the same reason). A lookup whose answer shows an order further than Keel knew it reconciles at once whatever this says.",
      ),
  })
  .transform((venue) => ({
    ...venue,
    heldCommandWaitMs: venue.heldCommandWaitMs ?? heldCommandWaitFor(venue.privateRequestTimeoutMs),
    privateWsUrl: venue.privateWsUrl ?? deriveWsUrl(venue.restUrl, PRIVATE_WS_PATH),
    marketDataWsUrl: venue.marketDataWsUrl ?? deriveWsUrl(venue.restUrl, MARKET_DATA_WS_PATH),
  }));

/**
 * The brokerClientId of a run's US-equity orders: `venue.brokerClientId`, else the main portfolio
 * id (Keel's choice: the spec calls it the account id of the client, and the embedded paper venue
 * names its one account after `portfolios.main`). Without it every PLACE_ORDER is refused.
 * @param config - the run's venue section (absent in paper mode) and portfolios
 * @returns the id to send
 */
export function brokerClientIdOf(config: {
  readonly venue?: { readonly brokerClientId?: string | undefined } | undefined;
  readonly portfolios: { readonly main: string };
}): string {
  return config.venue?.brokerClientId ?? config.portfolios.main;
}

/** The venue connection of a run, validated. */
export type VenueConfig = z.output<typeof venueConfigSchema>;

/** YAML paths (from the root) that must be `${ENV_VAR}` references, never literal values. */
export const SECRET_PATHS: readonly (readonly string[])[] = [
  ['venue', 'apiKey'],
  ['venue', 'apiSecret'],
];
