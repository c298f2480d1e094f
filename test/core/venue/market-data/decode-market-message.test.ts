import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bboMapper,
  decodeMarketMessage,
  MARKET_DATA_CHANNELS,
  MARKET_DATA_MAPPERS,
  MarketDataDecodeError,
} from '../../../../core/venue/index.ts';
import { decodeError } from '../../../kit/market-data-decode-errors.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
const bbo = (data: Record<string, unknown>) => ({ arg: { channel: 'BBO', sym: SYM }, data });
const goodBbo = { bid: '95000.1', bidqty: '1.5', ask: '95000.3', askqty: '0.25', ts: 1_700_000_000_000 };

describe('market-data decoding', () => {
  it('decodes a BBO push into a quote with numbers from the strings and both timestamps', () => {
    expect(decodeMarketMessage(bbo(goodBbo), 1_700_000_000_007)).toEqual({
      kind: 'quote',
      sym: SYM,
      ts: 1_700_000_000_000,
      recvTs: 1_700_000_000_007,
      bid: 95000.1,
      bidQty: 1.5,
      ask: 95000.3,
      askQty: 0.25,
    });
  });

  it('decodes TRADE, KLINE, ORDER_BOOK and MARK_PRICE pushes', () => {
    expect(
      decodeMarketMessage(
        {
          arg: { channel: 'TRADE', sym: SYM },
          data: { tradeId: '42', price: '95000.2', qty: '0.010', side: 'SELL', ts: 5 },
        },
        6,
      ),
    ).toEqual({
      kind: 'trade',
      sym: SYM,
      ts: 5,
      recvTs: 6,
      tradeId: '42',
      price: 95000.2,
      qty: 0.01,
      side: 'SELL',
    });
    expect(
      decodeMarketMessage(
        {
          arg: { channel: 'KLINE', sym: SYM, interval: '1m' },
          data: {
            openTime: 0,
            open: '1',
            high: '3',
            low: '0.5',
            close: '2',
            volume: '10.5',
            closed: true,
            ts: 60_000,
          },
        },
        60_001,
      ),
    ).toEqual({
      kind: 'bar',
      sym: SYM,
      ts: 60_000,
      recvTs: 60_001,
      interval: '1m',
      openTime: 0,
      open: 1,
      high: 3,
      low: 0.5,
      close: 2,
      volume: 10.5,
      closed: true,
    });
    expect(
      decodeMarketMessage(
        {
          arg: { channel: 'ORDER_BOOK', sym: SYM },
          data: {
            bids: [['100.5', '2']],
            asks: [
              ['100.6', '1'],
              ['100.7', '3'],
            ],
            ts: 9,
          },
        },
        10,
      ),
    ).toEqual({
      kind: 'book',
      sym: SYM,
      ts: 9,
      recvTs: 10,
      bids: [[100.5, 2]],
      asks: [
        [100.6, 1],
        [100.7, 3],
      ],
    });
    expect(
      decodeMarketMessage(
        {
          arg: { channel: 'MARK_PRICE', sym: SYM },
          data: { markPrice: '95001', fundingRate: '0.0001', ts: 3 },
        },
        4,
      ),
    ).toEqual({ kind: 'markPrice', sym: SYM, ts: 3, recvTs: 4, markPrice: 95001, fundingRate: 0.0001 });
  });

  it('has one mapper per channel, each recognising only its own pushes', () => {
    expect(MARKET_DATA_MAPPERS.map((m) => m.channel)).toEqual([
      'BBO',
      'TRADE',
      'KLINE',
      'ORDER_BOOK',
      'MARK_PRICE',
      'TICKER',
      'INDEX_PRICE',
      'OPEN_INTEREST',
    ]);
    expect(bboMapper.canHandle(bbo(goodBbo))).toBe(true);
    expect(bboMapper.canHandle({ arg: { channel: 'TRADE', sym: SYM } })).toBe(false);
    expect(bboMapper.canHandle(null)).toBe(false);
  });

  it.each([
    ['bid', { ...goodBbo, bid: 95000.1 }, 'data.bid'],
    ['bidqty', { ...goodBbo, bidqty: 'abc' }, 'data.bidqty'],
    ['ask', { ...goodBbo, ask: '' }, 'data.ask'],
    ['askqty', { ...goodBbo, askqty: undefined }, 'data.askqty'],
    ['ts', { ...goodBbo, ts: '1700000000000' }, 'data.ts'],
  ])('names the field when a BBO %s is wrong', (_name, data, field) => {
    const error = decodeError(bbo(data));
    expect(error.field).toBe(field);
    expect(error.channel).toBe('BBO');
    expect(error.sym).toBe(SYM);
    expect(error.message).toContain(`BBO message for ${SYM}: ${field}`);
  });

  it('names the field of malformed envelopes and of the other channels', () => {
    expect(decodeError('hello').field).toBe('message');
    expect(decodeError({ data: goodBbo }).field).toBe('arg');
    expect(decodeError({ arg: { channel: 'BBO' }, data: goodBbo }).field).toBe('arg.sym');
    expect(decodeError({ arg: { channel: 'BBO', sym: SYM }, data: [] }).field).toBe('data');
    expect(decodeError({ arg: { channel: 'FUNDING_RATE', sym: SYM }, data: {} }).field).toBe('arg.channel');
    expect(
      decodeError({
        arg: { channel: 'TRADE', sym: SYM },
        data: { tradeId: '1', price: '1', qty: '1', side: 'B', ts: 1 },
      }).field,
    ).toBe('data.side');
    expect(decodeError({ arg: { channel: 'KLINE', sym: SYM, interval: '2m' }, data: {} }).field).toBe(
      'arg.interval',
    );
    expect(
      decodeError({ arg: { channel: 'ORDER_BOOK', sym: SYM }, data: { bids: [['1', 'x']], asks: [], ts: 1 } })
        .field,
    ).toBe('data.bids[0][1]');
    expect(
      decodeError({
        arg: { channel: 'MARK_PRICE', sym: SYM },
        data: { markPrice: '1', indexPrice: 2, ts: 1 },
      }).field,
    ).toBe('data.indexPrice');
  });

  it('returns null for control messages: subscribe acks and heartbeats', () => {
    expect(
      decodeMarketMessage({ event: 'subscribe', arg: [{ channel: 'BBO', sym: SYM }], code: 0 }, 1),
    ).toBeNull();
    expect(decodeMarketMessage({ pong: 123 }, 1)).toBeNull();
  });

  it('never throws, whatever it is given', () => {
    const pushLike = fc.record({
      arg: fc.oneof(
        fc.record({
          channel: fc.constantFrom(...MARKET_DATA_CHANNELS),
          sym: fc.jsonValue(),
        }),
        fc.jsonValue(),
      ),
      data: fc.oneof(
        fc.dictionary(fc.constantFrom('bid', 'ask', 'ts', 'bids', 'price', 'side'), fc.jsonValue()),
        fc.jsonValue(),
      ),
    });
    fc.assert(
      fc.property(fc.oneof(pushLike, fc.jsonValue()), (msg) => {
        const result = decodeMarketMessage(msg, 0);
        expect(
          result === null || result instanceof MarketDataDecodeError || typeof result.kind === 'string',
        ).toBe(true);
      }),
    );
  });
});
