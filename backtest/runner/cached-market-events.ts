import type {
  BarEvent,
  BarInterval,
  GapEvent,
  MarketTradeEvent,
  QuoteEvent,
} from '../../core/model/index.ts';

/*
 * The market events read back from the event cache, made with `new` rather than written as object
 * literals. V8 judges all the objects of a literal's allocation site by the first ones it tracks:
 * a run's first events wait in their batch through a young-generation collection, and V8 then made
 * every later event of the run in the old generation, where each one (dead a few events later)
 * waited for a major collection. Made by a constructor, an event has no allocation site. Each
 * constructor's prototype is Object's, so an event is a plain object with the fields in the
 * decoders' order, as a literal is. Quotes and trades are the events a run has by the million; bars
 * are a bar strategy's every event, and gaps share their batches.
 */

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A quote read back from the cache: `new CachedQuote(sym, ts, recvTs, bid, bidQty, ask, askQty)`. */
export const CachedQuote = function CachedQuote(
  this: Mutable<QuoteEvent>,
  sym: string,
  ts: number,
  recvTs: number,
  bid: number,
  bidQty: number,
  ask: number,
  askQty: number,
): void {
  this.kind = 'quote';
  this.sym = sym;
  this.ts = ts;
  this.recvTs = recvTs;
  this.bid = bid;
  this.bidQty = bidQty;
  this.ask = ask;
  this.askQty = askQty;
} as unknown as new (
  sym: string,
  ts: number,
  recvTs: number,
  bid: number,
  bidQty: number,
  ask: number,
  askQty: number,
) => QuoteEvent;
CachedQuote.prototype = Object.prototype;

/** A trade read back from the cache: `new CachedTrade(sym, ts, recvTs, tradeId, price, qty, side)`. */
export const CachedTrade = function CachedTrade(
  this: Mutable<MarketTradeEvent>,
  sym: string,
  ts: number,
  recvTs: number,
  tradeId: string,
  price: number,
  qty: number,
  side: MarketTradeEvent['side'],
): void {
  this.kind = 'trade';
  this.sym = sym;
  this.ts = ts;
  this.recvTs = recvTs;
  this.tradeId = tradeId;
  this.price = price;
  this.qty = qty;
  this.side = side;
} as unknown as new (
  sym: string,
  ts: number,
  recvTs: number,
  tradeId: string,
  price: number,
  qty: number,
  side: MarketTradeEvent['side'],
) => MarketTradeEvent;
CachedTrade.prototype = Object.prototype;

/**
 * A bar read back from the cache:
 * `new CachedBar(sym, ts, recvTs, interval, openTime, open, high, low, close, volume, closed)`.
 */
export const CachedBar = function CachedBar(
  this: Mutable<BarEvent>,
  sym: string,
  ts: number,
  recvTs: number,
  interval: BarInterval,
  openTime: number,
  open: number,
  high: number,
  low: number,
  close: number,
  volume: number,
  closed: boolean,
): void {
  this.kind = 'bar';
  this.sym = sym;
  this.ts = ts;
  this.recvTs = recvTs;
  this.interval = interval;
  this.openTime = openTime;
  this.open = open;
  this.high = high;
  this.low = low;
  this.close = close;
  this.volume = volume;
  this.closed = closed;
} as unknown as new (
  sym: string,
  ts: number,
  recvTs: number,
  interval: BarInterval,
  openTime: number,
  open: number,
  high: number,
  low: number,
  close: number,
  volume: number,
  closed: boolean,
) => BarEvent;
CachedBar.prototype = Object.prototype;

/** A gap read back from the cache: `new CachedGap(sym, ts, recvTs, fromTs, reason)`. */
export const CachedGap = function CachedGap(
  this: Mutable<GapEvent>,
  sym: string,
  ts: number,
  recvTs: number,
  fromTs: number,
  reason: string,
): void {
  this.kind = 'gap';
  this.sym = sym;
  this.ts = ts;
  this.recvTs = recvTs;
  this.fromTs = fromTs;
  this.reason = reason;
} as unknown as new (
  sym: string,
  ts: number,
  recvTs: number,
  fromTs: number,
  reason: string,
) => GapEvent;
CachedGap.prototype = Object.prototype;
