import type { IndexPriceEvent, OpenInterestEvent, TickerEvent } from '../../model/index.ts';
import { decimalOf, formatDecimal } from '../../model/index.ts';
import type { WireIndexPricePush, WireOpenInterestPush, WireTickerPush } from './wire-types.ts';

/**
 * Writes a hot-path number as the venue writes decimals: plain notation, never an exponent
 * ("1e-7" becomes "0.0000001"). The shortest form is tried first, so the common case costs no
 * Decimal.
 * @param value - a finite number
 * @returns the decimal string
 */
function decimalTextOf(value: number): string {
  const text = String(value);
  return text.includes('e') ? formatDecimal(decimalOf(value)) : text;
}

/**
 * The TICKER push of a ticker event (shape Keel's choice, see wire-types.ts); the inverse of
 * `tickerMapper` up to `recvTs`.
 * @param event - the ticker
 * @returns the push, ready for JSON.stringify
 */
export function tickerPush(event: TickerEvent): WireTickerPush {
  return {
    arg: { channel: 'TICKER', sym: event.sym },
    data: {
      last: decimalTextOf(event.last),
      ...(event.bid === undefined ? {} : { bid: decimalTextOf(event.bid) }),
      ...(event.ask === undefined ? {} : { ask: decimalTextOf(event.ask) }),
      high24h: decimalTextOf(event.high24h),
      low24h: decimalTextOf(event.low24h),
      volume24h: decimalTextOf(event.volume24h),
      ts: event.ts,
    },
  };
}

/**
 * The INDEX_PRICE push of an index-price event (shape Keel's choice, see wire-types.ts); the
 * inverse of `indexPriceMapper` up to `recvTs`.
 * @param event - the index price
 * @returns the push, ready for JSON.stringify
 */
export function indexPricePush(event: IndexPriceEvent): WireIndexPricePush {
  return {
    arg: { channel: 'INDEX_PRICE', sym: event.sym },
    data: { indexPrice: decimalTextOf(event.indexPrice), ts: event.ts },
  };
}

/**
 * The OPEN_INTEREST push of an open-interest event (shape Keel's choice, see wire-types.ts); the
 * inverse of `openInterestMapper` up to `recvTs`.
 * @param event - the open interest
 * @returns the push, ready for JSON.stringify
 */
export function openInterestPush(event: OpenInterestEvent): WireOpenInterestPush {
  return {
    arg: { channel: 'OPEN_INTEREST', sym: event.sym },
    data: { openInterest: decimalTextOf(event.openInterest), ts: event.ts },
  };
}
