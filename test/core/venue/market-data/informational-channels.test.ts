import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IndexPriceEvent, OpenInterestEvent, TickerEvent } from '../../../../core/model/index.ts';
import {
  decodeMarketMessage,
  indexPricePush,
  openInterestPush,
  tickerPush,
} from '../../../../core/venue/index.ts';
import { decodeError } from '../../../kit/market-data-decode-errors.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
const ticker = (data: Record<string, unknown>) => ({ arg: { channel: 'TICKER', sym: SYM }, data });
const goodTicker = {
  last: '95000.2',
  bid: '95000.1',
  ask: '95000.3',
  high24h: '96000',
  low24h: '94000.5',
  volume24h: '1234.567',
  ts: 1_700_000_000_000,
};

/** Prices and sizes as the venue sends them: decimal strings of at most 15 significant digits. */
const venueNumber = fc
  .tuple(fc.integer({ min: 0, max: 999_999_999 }), fc.integer({ min: 0, max: 8 }))
  .map(([units, decimals]) => units / 10 ** decimals);
const times = fc.record({ ts: fc.integer({ min: 0, max: 4e12 }), recvTs: fc.integer({ min: 0, max: 4e12 }) });

describe('market-data decoding: TICKER, INDEX_PRICE, OPEN_INTEREST (wire shapes Keel’s choice)', () => {
  it('decodes a TICKER push into a ticker with numbers from the strings', () => {
    expect(decodeMarketMessage(ticker(goodTicker), 1_700_000_000_009)).toEqual({
      kind: 'ticker',
      sym: SYM,
      ts: 1_700_000_000_000,
      recvTs: 1_700_000_000_009,
      last: 95000.2,
      bid: 95000.1,
      ask: 95000.3,
      high24h: 96000,
      low24h: 94000.5,
      volume24h: 1234.567,
    });
  });

  it('decodes a TICKER push without bid and ask (the feed showed none yet) leaving them absent', () => {
    const { bid: _bid, ask: _ask, ...noBook } = goodTicker;
    const event = decodeMarketMessage(ticker(noBook), 1) as TickerEvent;
    expect(event.kind).toBe('ticker');
    expect('bid' in event || 'ask' in event).toBe(false);
  });

  it('decodes INDEX_PRICE and OPEN_INTEREST pushes', () => {
    expect(
      decodeMarketMessage(
        { arg: { channel: 'INDEX_PRICE', sym: SYM }, data: { indexPrice: '95001.5', ts: 5 } },
        6,
      ),
    ).toEqual({ kind: 'indexPrice', sym: SYM, ts: 5, recvTs: 6, indexPrice: 95001.5 });
    expect(
      decodeMarketMessage(
        { arg: { channel: 'OPEN_INTEREST', sym: SYM }, data: { openInterest: '12.5', ts: 5 } },
        6,
      ),
    ).toEqual({ kind: 'openInterest', sym: SYM, ts: 5, recvTs: 6, openInterest: 12.5 });
  });

  it.each([
    ['last', { ...goodTicker, last: 95000.2 }, 'data.last'],
    ['bid', { ...goodTicker, bid: 'abc' }, 'data.bid'],
    ['ask', { ...goodTicker, ask: '' }, 'data.ask'],
    ['high24h', { ...goodTicker, high24h: undefined }, 'data.high24h'],
    ['low24h', { ...goodTicker, low24h: null }, 'data.low24h'],
    ['volume24h', { ...goodTicker, volume24h: 'NaN' }, 'data.volume24h'],
    ['ts', { ...goodTicker, ts: '1700000000000' }, 'data.ts'],
  ])('names the field when a TICKER %s is wrong', (_name, data, field) => {
    const error = decodeError(ticker(data));
    expect([error.channel, error.sym, error.field]).toEqual(['TICKER', SYM, field]);
    expect(error.message).toContain(`TICKER message for ${SYM}: ${field}`);
  });

  it('names the field when an INDEX_PRICE or OPEN_INTEREST push is wrong or misnamed', () => {
    const index = (data: unknown) => ({ arg: { channel: 'INDEX_PRICE', sym: SYM }, data });
    const oi = (data: unknown) => ({ arg: { channel: 'OPEN_INTEREST', sym: SYM }, data });
    // A field spelled as another venue spells it is missing, not silently zero.
    expect(decodeError(index({ index_price: '1', ts: 1 })).field).toBe('data.indexPrice');
    expect(decodeError(index({ indexPrice: 1, ts: 1 })).field).toBe('data.indexPrice');
    expect(decodeError(index({ indexPrice: '1', ts: -1 })).field).toBe('data.ts');
    expect(decodeError(oi({ oi: '1', ts: 1 })).field).toBe('data.openInterest');
    expect(decodeError(oi({ openInterest: 'Infinity', ts: 1 })).field).toBe('data.openInterest');
    expect(decodeError(oi([])).field).toBe('data');
    expect(decodeError({ arg: { channel: 'OPEN_INTEREST' }, data: { openInterest: '1', ts: 1 } }).field).toBe(
      'arg.sym',
    );
    expect(decodeError(ticker({ ...goodTicker, volume: '1', volume24h: undefined })).field).toBe(
      'data.volume24h',
    );
  });

  it('round-trips a ticker through its push and JSON', () => {
    const event = fc.record(
      {
        kind: fc.constant('ticker' as const),
        sym: fc.constant(SYM),
        last: venueNumber,
        bid: venueNumber,
        ask: venueNumber,
        high24h: venueNumber,
        low24h: venueNumber,
        volume24h: venueNumber,
      },
      { requiredKeys: ['kind', 'sym', 'last', 'high24h', 'low24h', 'volume24h'] },
    );
    fc.assert(
      fc.property(event, times, (fields, { ts, recvTs }) => {
        const original: TickerEvent = { ...fields, ts, recvTs };
        const wire = JSON.parse(JSON.stringify(tickerPush(original)));
        expect(wire.data.last).not.toMatch(/e/);
        expect(decodeMarketMessage(wire, recvTs)).toEqual(original);
      }),
    );
  });

  it('round-trips index prices and open interest through their pushes and JSON', () => {
    fc.assert(
      fc.property(venueNumber, venueNumber, times, (indexPrice, openInterest, { ts, recvTs }) => {
        const index: IndexPriceEvent = { kind: 'indexPrice', sym: SYM, ts, recvTs, indexPrice };
        const oi: OpenInterestEvent = { kind: 'openInterest', sym: SYM, ts, recvTs, openInterest };
        expect(decodeMarketMessage(JSON.parse(JSON.stringify(indexPricePush(index))), recvTs)).toEqual(index);
        expect(decodeMarketMessage(JSON.parse(JSON.stringify(openInterestPush(oi))), recvTs)).toEqual(oi);
      }),
    );
  });

  it('writes tiny numbers in plain notation, as the venue writes decimals', () => {
    const oi: OpenInterestEvent = { kind: 'openInterest', sym: SYM, ts: 1, recvTs: 1, openInterest: 1e-7 };
    expect(openInterestPush(oi).data.openInterest).toBe('0.0000001');
  });
});
