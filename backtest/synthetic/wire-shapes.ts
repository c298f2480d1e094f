/**
 * JSON text of market-data pushes, in exactly the wire shapes of `core/venue/market-data`
 * (BBO per public venue docs; TRADE, KLINE and the `ts` field Keel's choice). backtest/ may not
 * import core/venue, so the shapes are written here again; a test decodes the generator's output
 * through the venue decoders to prove they match. Built as template strings: the generator writes
 * millions of them.
 */

/**
 * A BBO push.
 * @param sym - the symbol
 * @param bid - best bid price, decimal string
 * @param bidqty - size at the bid, decimal string
 * @param ask - best ask price, decimal string
 * @param askqty - size at the ask, decimal string
 * @param ts - venue time, epoch ms
 * @returns the message's JSON text
 */
export function bboJson(
  sym: string,
  bid: string,
  bidqty: string,
  ask: string,
  askqty: string,
  ts: number,
): string {
  return `{"arg":{"channel":"BBO","sym":"${sym}"},"data":{"bid":"${bid}","bidqty":"${bidqty}","ask":"${ask}","askqty":"${askqty}","ts":${ts}}}`;
}

/**
 * A TRADE push.
 * @param sym - the symbol
 * @param tradeId - the venue's trade id
 * @param price - trade price, decimal string
 * @param qty - trade size, decimal string
 * @param side - the aggressor's side
 * @param ts - venue time, epoch ms
 * @returns the message's JSON text
 */
export function tradeJson(
  sym: string,
  tradeId: string,
  price: string,
  qty: string,
  side: 'BUY' | 'SELL',
  ts: number,
): string {
  return `{"arg":{"channel":"TRADE","sym":"${sym}"},"data":{"tradeId":"${tradeId}","price":"${price}","qty":"${qty}","side":"${side}","ts":${ts}}}`;
}

/** The fields of a closed 1-minute kline, prices and volume as decimal strings. */
export interface KlineFields {
  readonly openTime: number;
  readonly open: string;
  readonly high: string;
  readonly low: string;
  readonly close: string;
  readonly volume: string;
}

/**
 * A closed 1-minute KLINE push; `ts` is the bar's close time (openTime + 60 s).
 * @param sym - the symbol
 * @param bar - open time, OHLC and volume
 * @returns the message's JSON text
 */
export function klineJson(sym: string, bar: KlineFields): string {
  return `{"arg":{"channel":"KLINE","sym":"${sym}","interval":"1m"},"data":{"openTime":${bar.openTime},"open":"${bar.open}","high":"${bar.high}","low":"${bar.low}","close":"${bar.close}","volume":"${bar.volume}","closed":true,"ts":${bar.openTime + 60_000}}}`;
}
