import type { BookLevel, Dec, MarketEvent, OrderSide } from '../../core/model/index.ts';
import { decimalOf } from '../../core/model/index.ts';

/** What the simulated venue knows of one sym's market: numbers only (hot path). */
export interface SymMarket {
  /** Latest displayed bids, best first (from the latest quote or book event). */
  bids: readonly BookLevel[];
  /** Latest displayed asks, best first. */
  asks: readonly BookLevel[];
  /**
   * The level of the latest quote's bid, as `bids` holds it after a quote: moved in place by each
   * quote (every quote made four arrays, most of what a quote cost the collector). Only `bids` is
   * read: the levels it gives are used within the event, never kept.
   */
  readonly quoteBids: [[price: number, size: number]];
  /** The level of the latest quote's ask, as for {@link SymMarket.quoteBids}. */
  readonly quoteAsks: [[price: number, size: number]];
  /** Latest traded price (trade event, or bar close); NaN until one is seen. */
  last: number;
  /** Mid of the best bid and ask, worked out when first asked for; NaN until then. */
  mid: number;
  /** Size of the latest trade (Infinity after a bar close: a bar has no size at one price). */
  lastQty: number;
  /** What the sim's orders took of the latest trade's size (trades-only recordings). */
  lastTaken: number;
  /**
   * The part of the latest trade's size that is displayed liquidity the sim already took: a print
   * by an aggressor on the taking side at a level the sim took from shows that same liquidity
   * traded, not new liquidity (see `TakenLevel.explained`).
   */
  lastExplained: number;
  /**
   * The price of the latest print through the displayed bids (below the best bid) since the last
   * quote or book, NaN when none: the bids above it were taken, so sellers get no better than it
   * until the next display (see `swept-levels.ts`).
   */
  bidsSweptAt: number;
  /** What is left at `bidsSweptAt` for the sim's sellers: the print's size less what the sim took. */
  bidsSweptLeft: number;
  /** The price of the latest print through the displayed asks (above the best ask), as for bids. */
  asksSweptAt: number;
  /** What is left at `asksSweptAt` for the sim's buyers. */
  asksSweptLeft: number;
  /** Displayed bid liquidity the sim took, per level, until that level's size changes. */
  bidsTaken: TakenLevel[];
  /** Displayed ask liquidity the sim took, per level, until that level's size changes. */
  asksTaken: TakenLevel[];
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
 * Displayed size the sim's orders already took at one price level. The recording cannot show our
 * own fills, so while the level keeps displaying the same size, only `shown - taken` is offered
 * again; a changed size, or a level that went away and came back, is new liquidity offered again
 * in full, however small the change (5 shown, 5 taken, then 4.9 shown: 4.9 on offer; Keel's
 * choice: the recording cannot say whether what it shows now is what the sim took or others' new
 * orders).
 */
export interface TakenLevel {
  readonly price: number;
  /** The displayed size the taking happened against. */
  readonly shown: number;
  /** How much of it the sim took. */
  taken: number;
  /**
   * How much of `taken` prints at this price by aggressors on the taking side have shown traded
   * since: such a print lifts the same displayed level, so what the sim took of it is not offered
   * to the sim's resting orders again (Keel's choice; once explained, further prints are new).
   */
  explained: number;
}

/**
 * A fresh, empty market state.
 * @returns the state with nothing known
 */
export function emptySymMarket(): SymMarket {
  return {
    bids: [],
    asks: [],
    quoteBids: [[Number.NaN, 0]],
    quoteAsks: [[Number.NaN, 0]],
    last: Number.NaN,
    mid: Number.NaN,
    lastQty: Number.POSITIVE_INFINITY,
    lastTaken: 0,
    lastExplained: 0,
    bidsSweptAt: Number.NaN,
    bidsSweptLeft: 0,
    asksSweptAt: Number.NaN,
    asksSweptLeft: 0,
    bidsTaken: [],
    asksTaken: [],
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
      market.quoteBids[0][0] = event.bid;
      market.quoteBids[0][1] = event.bidQty;
      market.quoteAsks[0][0] = event.ask;
      market.quoteAsks[0][1] = event.askQty;
      market.bids = market.quoteBids;
      market.asks = market.quoteAsks;
      market.mid = Number.NaN;
      forgetChangedLevels(market);
      return;
    case 'book':
      market.bids = event.bids;
      market.asks = event.asks;
      market.mid = Number.NaN;
      forgetChangedLevels(market);
      return;
    case 'trade':
      market.last = event.price;
      market.lastQty = event.qty;
      market.lastTaken = 0;
      noteSweep(market, event.price, event.qty, event.side);
      market.lastExplained =
        event.side === 'BUY'
          ? explainTaken(market.asksTaken, event.price, event.qty)
          : explainTaken(market.bidsTaken, event.price, event.qty);
      return;
    case 'bar':
      if (event.closed) {
        market.last = event.close;
        market.lastQty = Number.POSITIVE_INFINITY;
        market.lastTaken = 0;
      }
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
 * A print through the displayed touch proves the levels between were taken, on the side its
 * aggressor took (a seller's print below the bid, a buyer's above the ask; a print of the other
 * aggressor there is a late print of a market that moved, whose quote came first): remembers it as
 * the side's swept level until the next display, holding the print's size, or what a level
 * displayed at the print's price keeps after it when that is more. A print at or through the
 * side's swept level replaces it (each print is liquidity of its own); one between the swept level
 * and the displayed touch tells nothing new of that side (Keel's choice, the conservative one).
 */
function noteSweep(market: SymMarket, price: number, qty: number, aggressor: OrderSide): void {
  if (aggressor === 'SELL') {
    const bid = market.bids[0];
    if (bid !== undefined && price < bid[0] && !(price > market.bidsSweptAt)) {
      market.bidsSweptAt = price;
      market.bidsSweptLeft = leftAfterPrint(market.bids, price, qty);
    }
    return;
  }
  const ask = market.asks[0];
  if (ask !== undefined && price > ask[0] && !(price < market.asksSweptAt)) {
    market.asksSweptAt = price;
    market.asksSweptLeft = leftAfterPrint(market.asks, price, qty);
  }
}

/** A swept side's size at the print's price: the print's, or what a level displayed there keeps after it. */
function leftAfterPrint(levels: readonly BookLevel[], price: number, qty: number): number {
  const shown = displayedAt(levels, price);
  return Number.isNaN(shown) ? qty : Math.max(qty, shown - qty);
}

/**
 * The part of a print that shows displayed liquidity the sim took at its price traded: up to what
 * the sim took of that level and no print explained yet, noted as explained now.
 * @returns the explained size, 0 when the sim took nothing there (nearly always: no records)
 */
function explainTaken(taken: TakenLevel[], price: number, qty: number): number {
  for (const record of taken) {
    if (record.price !== price) continue;
    const explained = Math.min(qty, record.taken - record.explained);
    if (!(explained > 0)) return 0;
    record.explained += explained;
    return explained;
  }
  return 0;
}

function forgetChangedLevels(market: SymMarket): void {
  market.bidsSweptAt = Number.NaN;
  market.asksSweptAt = Number.NaN;
  // Nearly always empty: the common event costs two length checks.
  if (market.bidsTaken.length > 0) keepUnchanged(market.bidsTaken, market.bids);
  if (market.asksTaken.length > 0) keepUnchanged(market.asksTaken, market.asks);
}

/** Drops, in place, the taken records whose level is gone or displays another size. */
function keepUnchanged(taken: TakenLevel[], levels: readonly BookLevel[]): void {
  let kept = 0;
  for (const record of taken) {
    if (displayedAt(levels, record.price) === record.shown) taken[kept++] = record;
  }
  taken.length = kept;
}

function displayedAt(levels: readonly BookLevel[], price: number): number {
  for (const [p, qty] of levels) if (p === price) return qty;
  return Number.NaN;
}

/**
 * The displayed size at a level still on offer to the sim's orders: the size minus what they took
 * of that same display; all of it when the level shows another size than the one taken from.
 * @param taken - the side's taken records (`bidsTaken` or `asksTaken`)
 * @param price - the level's price
 * @param shown - the size the level displays now
 * @returns the size on offer, possibly 0
 */
export function offeredAt(taken: readonly TakenLevel[], price: number, shown: number): number {
  for (const record of taken) {
    if (record.price === price) return record.shown === shown ? Math.max(0, shown - record.taken) : shown;
  }
  return shown;
}

/**
 * Remembers that the sim's orders took some of a displayed level.
 * @param taken - the side's taken records, mutated
 * @param price - the level's price
 * @param shown - the size the level displays
 * @param qty - the quantity taken
 */
export function noteTaken(taken: TakenLevel[], price: number, shown: number, qty: number): void {
  for (let i = 0; i < taken.length; i++) {
    const record = taken[i] as TakenLevel;
    if (record.price !== price) continue;
    if (record.shown === shown) record.taken += qty;
    else taken[i] = { price, shown, taken: qty, explained: 0 };
    return;
  }
  taken.push({ price, shown, taken: qty, explained: 0 });
}

/**
 * The last price a LastPrice trigger compares with: last trade, else the quote mid (Keel's choice
 * when a recording has no trades), worked out once per quote.
 * @param market - the sym's state
 * @returns the price, NaN when nothing is known
 */
export function lastPriceOf(market: SymMarket): number {
  if (!Number.isNaN(market.last)) return market.last;
  if (Number.isNaN(market.mid)) {
    const bid = market.bids[0];
    const ask = market.asks[0];
    // The float sum carries noise (9.99 + 10 = 19.990000000000002) that would become money where
    // the mid is turned into a Decimal: 15 significant digits hold the exact mid of two venue prices.
    if (bid && ask) market.mid = Number(((bid[0] + ask[0]) / 2).toPrecision(15));
  }
  return market.mid;
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

/**
 * A price of the sym as money: the mark's Decimal when the price is the mark, which it is when a
 * bar's order fills at the price the bar is at (the mark of a recording without mark prices), so
 * the fill and the views of it convert the number once.
 * @param market - the sym's state
 * @param price - a known price (not NaN)
 * @returns the Decimal price
 */
export function priceDecimalOf(market: SymMarket, price: number): Dec {
  const mark = price === markPriceOf(market) ? markDecimalOf(market) : undefined;
  return mark ?? decimalOf(price);
}
