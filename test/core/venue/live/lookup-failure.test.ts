import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { LastingLookupFailure } from '../../../../core/execution/index.ts';
import { DecodeError, VenueError } from '../../../../core/venue/errors.ts';
import { notFoundOrThrow } from '../../../../core/venue/live/lookup-failure.ts';

const logger = pino({ level: 'silent' });
const lookup = { what: 'algo order', query: { clientAlgoOrderId: 'sl-1' }, sym: 'BINANCE_PERP_BTC_USDT' };
const REFUSED = new Set([400001]);
const venueError = (code: number, httpStatus = 400) =>
  new VenueError({ code, message: 'refused', method: 'GET', path: '/api/v1/algo/order', httpStatus });

describe("a lookup's failure", () => {
  it('is the answer "not found" for 401018', () => {
    expect(notFoundOrThrow(venueError(401018), lookup, REFUSED, logger)).toBeUndefined();
  });

  it('fails for good, naming what and where, on an undecodable answer or a refused query', () => {
    const undecodable = new DecodeError('GET /api/v1/algo/order', [
      { path: 'qty', problem: 'is not a decimal' },
    ]);
    for (const error of [undecodable, venueError(400001)]) {
      expect(() => notFoundOrThrow(error, lookup, REFUSED, logger)).toThrow(LastingLookupFailure);
      expect(() => notFoundOrThrow(error, lookup, REFUSED, logger)).toThrow(
        'the lookup of algo order {"clientAlgoOrderId":"sl-1"} on BINANCE_PERP_BTC_USDT failed for good: ',
      );
    }
  });

  it('is thrown as it is when asking again may help (a code outside the refused ones, no answer, 5xx)', () => {
    for (const error of [venueError(400009), venueError(0, 500), new Error('socket hang up')])
      expect(() => notFoundOrThrow(error, lookup, REFUSED, logger)).toThrow(error);
  });
});
