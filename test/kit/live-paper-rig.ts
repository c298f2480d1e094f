import { pino } from 'pino';
import { afterEach } from 'vitest';
import type { PaperVenue } from '../../backtest/paper-venue/index.ts';
import { D, type UserEvent } from '../../core/model/index.ts';
import type { ApprovedIntent } from '../../core/risk/index.ts';
import {
  hmacSigner,
  LiveExecutionClient,
  type LiveExecutionOptions,
  PrivateWsClient,
  VenueRestClient,
} from '../../core/venue/index.ts';
import { approved } from './approved-intents.ts';

/** A live execution client logged in to a paper venue, and every event it emitted. */
export interface LivePaperRig {
  readonly live: LiveExecutionClient;
  readonly rest: VenueRestClient;
  readonly events: UserEvent[];
}

/** The BTC perpetual of the paper venue builders' scripted feed. */
export const RIG_BTC = 'BINANCE_PERP_BTC_USDT';

/**
 * Connects a live execution client to a paper venue (fast reconnects, 300 ms acks, REST timeout
 * `restTimeoutMs`), collecting its events. Stop it with `rig.live.stop()` then `rig.rest.close()`.
 * @param venue - the running paper venue
 * @param options - execution client options to change
 * @param restTimeoutMs - REST timeout, ms (default 2 000)
 * @returns the started rig
 */
export async function liveOnPaper(
  venue: PaperVenue,
  options: Partial<LiveExecutionOptions> = {},
  restTimeoutMs = 2_000,
): Promise<LivePaperRig> {
  const signer = hmacSigner(venue.apiKey, venue.apiSecret);
  const logger = pino({ level: 'silent' });
  const rest = new VenueRestClient({ baseUrl: venue.restUrl, signer, timeoutMs: restTimeoutMs, logger });
  const live = new LiveExecutionClient({
    rest,
    ws: new PrivateWsClient({
      url: venue.privateWsUrl,
      signer,
      requestTimeoutMs: 300,
      reconnect: { baseMs: 50, capMs: 100 },
      logger,
    }),
    lookupSpacingMs: 50,
    logger,
    ...options,
  });
  const events: UserEvent[] = [];
  live.events.subscribe((e) => events.push(e));
  await live.start();
  return { live, rest, events };
}

/**
 * Live execution clients on paper venues for the tests of one file: after each test every client
 * is stopped and every venue given to one is closed.
 * @returns a function connecting a client to a running paper venue
 */
export function livePaperRigs(): (venue: PaperVenue) => Promise<LivePaperRig> {
  const rigs: LivePaperRig[] = [];
  const venues = new Set<PaperVenue>();
  afterEach(async () => {
    for (const rig of rigs.splice(0)) {
      await rig.live.stop();
      await rig.rest.close();
    }
    for (const venue of venues) await venue.close();
    venues.clear();
  });
  return async (venue) => {
    venues.add(venue);
    const rig = await liveOnPaper(venue);
    rigs.push(rig);
    return rig;
  };
}

/**
 * Waits (wall time, generous) until a condition holds.
 * @param check - the condition
 * @param what - what is awaited, for the error
 * @param ms - how long at most (default 5 000)
 * @returns when it holds
 * @throws Error when it did not hold in time
 */
export async function eventually(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * A 1 BTC GTC limit buy on {@link RIG_BTC}.
 * @param ref - clientOrderId
 * @param price - limit price
 * @returns the approved intent
 */
export function aRigBuy(ref: string, price: string): ApprovedIntent {
  return approved({
    kind: 'placeOrder',
    ref,
    sym: RIG_BTC,
    side: 'BUY',
    orderType: 'LIMIT',
    qty: D(1),
    price: D(price),
    timeInForce: 'GTC',
    reduceOnly: false,
    positionSide: 'NONE',
  });
}
