import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BUSINESS_TYPES,
  EXCHANGE_TYPES,
  formatSym,
  type InstrumentId,
  parseSym,
} from '../../../core/model/index.ts';

const asset = fc.stringMatching(/^[A-Z0-9]{1,20}$/);
const cryptoId: fc.Arbitrary<InstrumentId> = fc.record({
  kind: fc.constant('crypto' as const),
  exchangeType: fc.constantFrom(...EXCHANGE_TYPES),
  businessType: fc.constantFrom(...BUSINESS_TYPES),
  base: asset,
  quote: asset,
});
const equityId: fc.Arbitrary<InstrumentId> = fc.record({
  kind: fc.constant('equity' as const),
  exchangeCode: fc.constant('US' as const),
  productCode: fc.stringMatching(/^[A-Z0-9.]{1,12}$/),
});

describe('symbols', () => {
  it('formats and parses back every crypto and US-equity instrument id', () => {
    fc.assert(
      fc.property(fc.oneof(cryptoId, equityId), (id) => {
        expect(parseSym(formatSym(id))).toEqual(id);
      }),
    );
  });

  it('parses the venue examples and Keel equity syms', () => {
    expect(parseSym('BINANCE_PERP_BTC_USDT')).toEqual({
      kind: 'crypto',
      exchangeType: 'BINANCE',
      businessType: 'PERP',
      base: 'BTC',
      quote: 'USDT',
    });
    expect(formatSym(parseSym('OKX_SPOT_ETH_USDT'))).toBe('OKX_SPOT_ETH_USDT');
    expect(parseSym('US_EQUITY_AAPL')).toEqual({ kind: 'equity', exchangeCode: 'US', productCode: 'AAPL' });
  });

  it.each([
    ['NYSE_SPOT_BTC_USDT', /unknown exchange NYSE/],
    ['BINANCE_FUTURES_BTC_USDT', /unknown business FUTURES/],
    ['BINANCE_PERP_btc_USDT', /upper-case asset codes/],
    ['BTCUSDT', /is not \{EXCHANGE\}_\{BUSINESS\}_\{BASE\}_\{QUOTE\}/],
  ])('refuses %s and says why', (sym, why) => {
    expect(() => parseSym(sym)).toThrow(why);
  });
});
