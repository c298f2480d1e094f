import type { BookLevel, MarketEvent } from '../../core/model/index.ts';

function levels(side: readonly BookLevel[]): string {
  return side.map(([price, size]) => `${price}@${size}`).join(',');
}

/**
 * What makes a market event the same message as another received at the same time, receive time
 * aside: its sym, kind and every field it carries (a trade: its trade id), so that only a true
 * repeat of a message (the same message in two recordings) has the same key.
 * @param event - a decoded market event
 * @returns its identity key
 */
export function marketEventIdentity(event: MarketEvent): string {
  const head = `${event.sym}|${event.kind}|${event.ts}`;
  switch (event.kind) {
    case 'quote':
      return `${head}|${event.bid}|${event.bidQty}|${event.ask}|${event.askQty}`;
    case 'trade':
      return `${head}|${event.tradeId}`;
    case 'bar':
      return `${head}|${event.interval}|${event.openTime}|${event.open}|${event.high}|${event.low}|${event.close}|${event.volume}|${event.closed}`;
    case 'book':
      return `${head}|${levels(event.bids)}|${levels(event.asks)}`;
    case 'markPrice':
      return `${head}|${event.markPrice}|${event.indexPrice}|${event.fundingRate}|${event.nextFundingTime}`;
    case 'ticker':
      return `${head}|${event.last}|${event.bid}|${event.ask}|${event.high24h}|${event.low24h}|${event.volume24h}`;
    case 'indexPrice':
      return `${head}|${event.indexPrice}`;
    case 'openInterest':
      return `${head}|${event.openInterest}`;
    case 'gap':
      return `${head}|${event.fromTs}|${event.reason}`;
  }
}
