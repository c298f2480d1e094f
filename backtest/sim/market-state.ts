import type { BookLevel, Dec, MarketEvent } from '../../core/model/index.ts';
import { decimalOf } from '../../core/model/index.ts';

/** What the simulated venue knows of one sym's market: numbers only (hot path). */
export interface SymMarket {
  /** Latest displayed bids, best first (from the latest quote or book event). */
  bids: readonly BookLevel[];
  /** Latest displayed asks, best first. */
  asks: readonly BookLevel[];
  /** Latest traded price (trade event, or bar close); NaN until one is seen. */
  last: number;
  /** Latest mark price; NaN until a MARK_PRICE event is seen. */
  mark: number;
  /** Latest funding rate and the time it is settled, when the venue sent them. */
  fundingRate: number;
  nextFundingTime: number;
  /** The funding time last settled, so a repeated nextFundingTime is not paid twice. */
  fundingSettledAt: number;
  /** The last mark turned into money, and the number it came from (views reuse it). */
  markDec?: Dec;
  markDecOf: number;
}

/**
 * A fresh, empty market state.
 * @returns the state with nothing known
 */
export function emptySymMarket(): SymMarket {
  return {
    bids: [],
    asks: [],
    last: Number.NaN,
    mark: Number.NaN,
    fundingRate: 0,
    nextFundingTime: Number.NaN,
    fundingSettledAt: Number.NaN,
    markDecOf: Number.NaN,
  };
}

/**
 * Folds a market event into the sym's state (before matching reads it).
 * @param market - the sym's state, mutated
 * @param event - the event
 */
export function foldMarket(market: SymMarket, event: MarketEvent): void {
  switch (event.kind) {
    case 'quote':
      market.bids = [[event.bid, event.bidQty]];
      market.asks = [[event.ask, event.askQty]];
      return;
    case 'book':
      market.bids = event.bids;
      market.asks = event.asks;
      return;
    case 'trade':
      market.last = event.price;
      return;
    case 'bar':
      if (event.closed) market.last = event.close;
      return;
    case 'markPrice':
      market.mark = event.markPrice;
      if (event.fundingRate !== undefined && event.nextFundingTime !== undefined) {
        market.fundingRate = event.fundingRate;
        market.nextFundingTime = event.nextFundingTime;
      }
      return;
    case 'gap':
      return;
  }
}

/**
 * The last price a LastPrice trigger compares with: last trade, else the quote mid (Keel's choice
 * when a recording has no trades).
 * @param market - the sym's state
 * @returns the price, NaN when nothing is known
 */
export function lastPriceOf(market: SymMarket): number {
  if (!Number.isNaN(market.last)) return market.last;
  const bid = market.bids[0];
  const ask = market.asks[0];
  return bid && ask ? (bid[0] + ask[0]) / 2 : Number.NaN;
}

/**
 * The price positions are marked at: the venue's mark price, else the last price (Keel's choice
 * when a recording has no MARK_PRICE channel).
 * @param market - the sym's state
 * @returns the price, NaN when nothing is known
 */
export function markPriceOf(market: SymMarket): number {
  return Number.isNaN(market.mark) ? lastPriceOf(market) : market.mark;
}

/**
 * The mark price as money, converted once per new mark (views of positions, accounts and assets
 * ask for it many times per fill).
 * @param market - the sym's state
 * @returns the Decimal mark, undefined when nothing is known
 */
export function markDecimalOf(market: SymMarket): Dec | undefined {
  const price = markPriceOf(market);
  if (Number.isNaN(price)) return undefined;
  if (market.markDecOf !== price || market.markDec === undefined) {
    market.markDec = decimalOf(price);
    market.markDecOf = price;
  }
  return market.markDec;
}
