import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { PaperVenue } from '../../../backtest/paper-venue/index.ts';
import { type ArrayEncoding, hmacSigner, VenueError, VenueRestClient } from '../../../core/venue/index.ts';
import { aPaperVenue } from '../../kit/paper-venue-builders.ts';

const opened: { close(): Promise<void> | void }[] = [];
afterEach(async () => {
  for (const it of opened.splice(0).reverse()) await it.close();
});

/** The venue code of a close-positions request: 2000 when its signature is refused, 401097 past it (nothing to close). */
async function closeCode(rest: VenueRestClient): Promise<number> {
  const refused = await rest
    .closePositions({ symList: ['BINANCE_PERP_BTC_USDT'] })
    .catch((error: unknown) => error);
  return refused instanceof VenueError ? refused.code : 0;
}

function clientOf(venue: PaperVenue, signatureArrays?: ArrayEncoding): VenueRestClient {
  const rest = new VenueRestClient({
    baseUrl: venue.restUrl,
    signer: hmacSigner(venue.apiKey, venue.apiSecret),
    logger: pino({ level: 'silent' }),
    ...(signatureArrays === undefined ? {} : { signatureArrays }),
  });
  opened.push(rest);
  return rest;
}

// A session signing arrays otherwise than the venue can be rehearsed on paper: the paper venue
// verifies with its own setting, not the client's code.
describe('paper venue: the array encoding it verifies signatures with', () => {
  it('refuses with 2000 a close-positions request whose symList is signed in another encoding', async () => {
    const venue = await aPaperVenue({ signatureArrays: 'json' });
    opened.push(venue);
    expect(await closeCode(clientOf(venue))).toBe(2000);
    expect(await closeCode(clientOf(venue, 'json'))).toBe(401097);
  });

  it('verifies with commas by default, as Keel signs by default', async () => {
    const venue = await aPaperVenue();
    opened.push(venue);
    expect(await closeCode(clientOf(venue))).toBe(401097);
    expect(await closeCode(clientOf(venue, 'json'))).toBe(2000);
  });
});

// A query parameter reaches the venue as text: its raw value is the text sent, comma-joined items
// for an array, with no array left to write another way. The encoding setting is for JSON bodies.
describe('paper venue: array parameters of a GET query', () => {
  it.each([
    ['comma', 'json'],
    ['json', 'json'],
    ['json', 'brackets'],
    ['brackets', 'comma'],
  ] as const)(
    'answers a fee-rate query with syms from a client signing bodies with %s, verifying bodies with %s',
    async (client, verifier) => {
      const venue = await aPaperVenue({ signatureArrays: verifier });
      opened.push(venue);
      const syms = ['BINANCE_PERP_BTC_USDT', 'OKX_SPOT_ETH_USDT'];
      const rates = await clientOf(venue, client).getFeeRate({ syms, portfolioIds: [venue.portfolioId] });
      expect(rates.map((r) => r.portfolioId)).toEqual([venue.portfolioId]);
    },
  );
});
