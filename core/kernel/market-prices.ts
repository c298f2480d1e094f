import type { BarEvent, MarketTradeEvent, MarkPriceEvent, QuoteEvent } from '../model/index.ts';

/** The latest market data per sym that prices are read from: the kernel state's maps. */
export interface LatestMarketData {
  readonly quotes: ReadonlyMap<string, QuoteEvent>;
  readonly trades: ReadonlyMap<string, MarketTradeEvent>;
  readonly marks: ReadonlyMap<string, MarkPriceEvent>;
  /** Latest closed feed bar per sym (any interval). */
  readonly closedBars: ReadonlyMap<string, BarEvent>;
}

/**
 * The price orders are judged and positions valued at, in this order: mid of the last quote
 * (both sides present), else the last trade price, else the mark price, else the close of the
 * latest closed bar. Keel's choice: tradable prices first, the venue's mark next, and a bar
 * close last because it is the oldest (it is the only price on bar-only data).
 * @param data - the latest market data
 * @param sym - the symbol
 * @returns the reference price, or undefined before any market data
 */
export function referencePriceOf(data: LatestMarketData, sym: string): number | undefined {
  const quote = data.quotes.get(sym);
  if (quote !== undefined && quote.bid > 0 && quote.ask > 0) return (quote.bid + quote.ask) / 2;
  return data.trades.get(sym)?.price ?? data.marks.get(sym)?.markPrice ?? data.closedBars.get(sym)?.close;
}

/** A market event the venue's price of a sym may come from. */
type VenuePriceEvent = MarkPriceEvent | MarketTradeEvent | BarEvent | QuoteEvent;

/**
 * The event the price the venue values positions at comes from, by the simulated venue's rule:
 * the mark price, else the last price (the latest trade or closed bar, whichever came later),
 * else the quote (when it has both sides).
 */
function venuePriceEventOf(data: LatestMarketData, sym: string): VenuePriceEvent | undefined {
  const mark = data.marks.get(sym);
  if (mark !== undefined) return mark;
  const trade = data.trades.get(sym);
  const bar = data.closedBars.get(sym);
  if (trade !== undefined && (bar === undefined || trade.recvTs >= bar.recvTs)) return trade;
  if (bar !== undefined) return bar;
  const quote = data.quotes.get(sym);
  if (quote !== undefined && quote.bid > 0 && quote.ask > 0) return quote;
  return undefined;
}

/**
 * The price the venue values positions at, as far as Keel has seen, by the simulated venue's
 * rule: the mark price, else the last price (the latest trade or closed bar, whichever came
 * later), else the quote mid. Keel's choice where the venue publishes no mark, so the paper
 * session's equity matches a backtest of its recording.
 * @param data - the latest market data
 * @param sym - the symbol
 * @returns the price, or undefined before any market data
 */
export function venueMarkPriceOf(data: LatestMarketData, sym: string): number | undefined {
  const event = venuePriceEventOf(data, sym);
  switch (event?.kind) {
    case undefined:
      return undefined;
    case 'markPrice':
      return event.markPrice;
    case 'trade':
      return event.price;
    case 'bar':
      return event.close;
    case 'quote':
      return (event.bid + event.ask) / 2;
  }
}

/**
 * @param data - the latest market data
 * @param sym - the symbol
 * @returns the venue time (`ts`) of the event {@link venueMarkPriceOf} takes its price from, or
 *   undefined before any market data
 */
export function venueMarkTimeOf(data: LatestMarketData, sym: string): number | undefined {
  return venuePriceEventOf(data, sym)?.ts;
}
