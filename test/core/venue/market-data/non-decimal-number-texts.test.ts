import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeMarketMessage, MarketDataDecodeError } from '../../../../core/venue/market-data/index.ts';

const SYM = 'BINANCE_PERP_BTC_USDT';
const bbo = (bid: string, ask: string, bidqty = '1', askqty = '1') => ({
  arg: { channel: 'BBO', sym: SYM },
  data: { bid, bidqty, ask, askqty, ts: 1736173800000 },
});
const trade = (price: string, qty: string) => ({
  arg: { channel: 'TRADE', sym: SYM },
  data: { price, qty, side: 'BUY', tradeId: 't1', ts: 1736173800000 },
});

describe('price and quantity texts in a recording or feed that are not decimals', () => {
  it.each([
    ['0x10', 'hex: Number() reads it as 16'],
    ['0b1011', 'binary: read as 11'],
    ['0o17', 'octal: read as 15'],
    [' 95000 ', 'padded with spaces'],
    ['1e3', 'an exponent'],
    ['Infinity', 'not a number'],
    ['.5', 'no integer digits'],
    ['5.', 'no fraction digits'],
    ['+5', 'a plus sign'],
    ['', 'empty'],
    [`1${'0'.repeat(400)}`, 'beyond a double'],
  ])('refuses %j (%s), as the error text "must be a decimal string" promises', (text) => {
    const decoded = decodeMarketMessage(bbo('94999', text), 1);
    expect(decoded).toBeInstanceOf(MarketDataDecodeError);
    expect((decoded as Error).message).toMatch(/data\.ask must be a decimal string/);
  });

  it('refuses a negative quantity (a size), naming the field', () => {
    const decoded = decodeMarketMessage(bbo('-5', '95000', '-3'), 1);
    expect(decoded).toBeInstanceOf(MarketDataDecodeError);
    expect((decoded as Error).message).toMatch(/data\.bidqty must be a size/);
    expect(decodeMarketMessage(trade('95000', '-0.01'), 1)).toBeInstanceOf(MarketDataDecodeError);
  });

  it('reads every plain decimal as its number, a negative price included (property)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e9, max: 1e9, noNaN: true }),
        fc.integer({ min: 0, max: 8 }),
        (x, digits) => {
          const text = x.toFixed(digits);
          const decoded = decodeMarketMessage(trade(text, '0.5'), 1);
          expect(decoded).not.toBeInstanceOf(Error);
          expect((decoded as { price: number }).price).toBe(+text);
        },
      ),
    );
  });
});
