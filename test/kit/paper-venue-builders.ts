import { afterEach } from 'vitest';
import {
  listFeed,
  type PaperVenue,
  type PaperVenueOptions,
  startPaperVenue,
} from '../../backtest/paper-venue/index.ts';
import { SYNTHETIC_AAPL } from '../../backtest/synthetic/index.ts';
import { D, type Dec } from '../../core/model/index.ts';
import { anInstrument } from './instrument-builders.ts';
import { bboPush, type CollectingSocket, type PaperEndpoint } from './paper-venue-client.ts';

/** Venue time of the scripted feed's first event: 2026-01-01T00:00:00Z. */
export const T0 = Date.UTC(2026, 0, 1);

/** The scripted feed: BTC perp quotes 100.0 / 100.1, then a quote that crosses 99.0 resting bids. */
export const SCRIPTED_PUSHES = [
  bboPush('BINANCE_PERP_BTC_USDT', '100.0', '100.1', T0),
  bboPush('US_EQUITY_AAPL', '190.00', '190.02', T0 + 1, '500'),
  bboPush('BINANCE_PERP_BTC_USDT', '98.9', '99.0', T0 + 1000),
  bboPush('BINANCE_PERP_BTC_USDT', '99.5', '99.6', T0 + 2000),
];

/**
 * Starts a paper venue on 127.0.0.1 port 0 with a BTC perpetual and SYNTHETIC AAPL, the scripted
 * feed under manual pacing (the test releases events with `venue.feed.step`), touch fills.
 * @param overrides - any option to change
 * @returns the running venue (close it in afterEach)
 */
export function aPaperVenue(overrides: Partial<PaperVenueOptions> = {}): Promise<PaperVenue> {
  return startPaperVenue({
    instruments: [anInstrument('BINANCE_PERP_BTC_USDT', { minNotional: D('1') }), SYNTHETIC_AAPL],
    startingBalances: { USDT: D(100_000), USD: D(100_000) },
    fillModel: 'touch',
    feed: listFeed(SCRIPTED_PUSHES),
    pacing: { mode: 'manual' },
    loans: {
      assets: {
        'BINANCE:USDT': { annualRate: D('0.08'), userQuota: D(50_000), pool: D(20_000) },
        'BINANCE:USDC': { annualRate: D('0.08'), userQuota: D(10), pool: D(1_000) },
      },
    },
    ...overrides,
  });
}

/**
 * Releases the scripted feed's first two quotes (BTC, then AAPL) and waits until the venue
 * processed them, so that orders on either sym can be placed and priced.
 * @param venue - a venue on {@link SCRIPTED_PUSHES} under manual pacing, e.g. {@link aPaperVenue}'s
 * @returns the same venue
 */
export async function withFirstQuotes(venue: PaperVenue): Promise<PaperVenue> {
  venue.feed.step(2);
  await venue.feed.until(2);
  return venue;
}

/** A paper venue with a main portfolio and one sub-portfolio, and the signed endpoint of each. */
export interface MainAndSubVenue {
  readonly venue: PaperVenue;
  readonly main: PaperEndpoint;
  readonly sub: PaperEndpoint;
}

/**
 * Starts {@link aPaperVenue} with PAPER-MAIN (100,000 USDT, key `main-key`) and PAPER-SUB
 * (key `sub-key`); the feed is not stepped.
 * @param sub - the sub-portfolio's USDT and fee markup (rate)
 * @param overrides - any other option, e.g. the feed
 * @returns the venue and both endpoints
 */
export async function aMainAndSubVenue(
  sub: { readonly usdt: number; readonly feeMarkup?: Dec },
  overrides: Partial<PaperVenueOptions> = {},
): Promise<MainAndSubVenue> {
  const venue = await aPaperVenue({
    ...overrides,
    portfolios: [
      {
        portfolioId: 'PAPER-MAIN',
        apiKey: 'main-key',
        apiSecret: 'main-secret',
        startingBalances: { USDT: D(100_000) },
      },
      {
        portfolioId: 'PAPER-SUB',
        apiKey: 'sub-key',
        apiSecret: 'sub-secret',
        startingBalances: { USDT: D(sub.usdt) },
        ...(sub.feeMarkup === undefined ? {} : { feeMarkup: sub.feeMarkup }),
      },
    ],
  });
  return {
    venue,
    main: { restUrl: venue.restUrl, apiKey: 'main-key', apiSecret: 'main-secret' },
    sub: { restUrl: venue.restUrl, apiKey: 'sub-key', apiSecret: 'sub-secret' },
  };
}

/** What one test opened: its venue and sockets, closed after it by {@link closedAfterEachTest}. */
export interface OpenedByTest {
  /** The venue the test started, if any. */
  venue: PaperVenue | undefined;
  /** The sockets the test opened. */
  readonly sockets: CollectingSocket[];
}

/**
 * After each test of the file this is called in, closes the sockets the test opened, then its venue.
 * @returns where each test puts its venue and sockets
 */
export function closedAfterEachTest(): OpenedByTest {
  const opened: OpenedByTest = { venue: undefined, sockets: [] };
  afterEach(async () => {
    for (const socket of opened.sockets.splice(0)) await socket.close();
    await opened.venue?.close();
    opened.venue = undefined;
  });
  return opened;
}
