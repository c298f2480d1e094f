import type { InstrumentSpec, MarketEvent, Position } from '../../core/model/index.ts';
import { isPerpetual, ZERO } from '../../core/model/index.ts';
import { indexPricePush, openInterestPush, tickerPush } from '../../core/venue/index.ts';
import type { FeedItem } from './market-feed.ts';
import { RollingTradeWindow } from './rolling-trade-window.ts';

/** Window of the TICKER channel's high, low and volume: 24 h, as the venue's ticker (Keel's choice of default). */
export const TICKER_WINDOW_MS = 86_400_000;

/** Whether some connection subscribed to a channel of a sym. */
export type WantsPush = (channel: string, sym: string) => boolean;

interface SymTape {
  readonly perp: boolean;
  /** 10^(decimals of the lot size): volume is rounded to it, so float sums print as the venue would. */
  readonly lotScale: number;
  /** 10^(decimals of the tick + 1): a quote mid has at most one decimal more than the tick. */
  readonly midScale: number;
  readonly window: RollingTradeWindow;
  last: number;
  bid: number;
  ask: number;
  /** The feed carries this channel itself: it is forwarded, not derived. */
  fedTicker: boolean;
  fedIndex: boolean;
  fedOpenInterest: boolean;
  /** The feed carries mark prices: INDEX_PRICE and OPEN_INTEREST follow them, else the trades. */
  hasMark: boolean;
}

/**
 * The market-data channels a recording or the synthetic generator does not carry, derived from
 * the feed by the paper venue (Keel's choice of cadence and content):
 * - TICKER on each trade: last trade price, the latest best bid and ask, and the high, low and
 *   volume of the trades in the rolling window (24 h by default) ending at the trade;
 * - INDEX_PRICE of a perpetual on each mark-price event (its indexPrice, else the quote mid), or
 *   on each trade when the feed has no mark prices for the sym (the quote mid);
 * - OPEN_INTEREST of a perpetual at the same moments: the open position quantity the paper
 *   venue's portfolios hold in the sym (sum of |positionQty|), since the venue's counterparties
 *   are the recorded market.
 * A channel the feed carries itself for a sym is never derived for it. A feed of bars alone gives
 * no TICKER (there is no trade to mark it).
 */
export class DerivedMarketData {
  private readonly tapes = new Map<string, SymTape>();

  /**
   * @param instruments - the venue's instruments (perpetuals get INDEX_PRICE and OPEN_INTEREST)
   * @param positionsOf - every portfolio's current positions, read only when OPEN_INTEREST is wanted
   * @param windowMs - the ticker's rolling window, ms
   */
  constructor(
    instruments: readonly InstrumentSpec[],
    private readonly positionsOf: () => Iterable<Position>,
    windowMs = TICKER_WINDOW_MS,
  ) {
    for (const spec of instruments) {
      this.tapes.set(spec.sym, {
        perp: isPerpetual(spec.id),
        lotScale: 10 ** spec.lotSize.decimalPlaces(),
        midScale: 10 ** (spec.tickSize.decimalPlaces() + 1),
        window: new RollingTradeWindow(windowMs),
        last: Number.NaN,
        bid: Number.NaN,
        ask: Number.NaN,
        fedTicker: false,
        fedIndex: false,
        fedOpenInterest: false,
        hasMark: false,
      });
    }
  }

  /**
   * Folds one released feed event and returns the pushes it gives rise to. Folding always happens
   * (a restart's catch-up must rebuild the window); a push is built only when `wants` says some
   * connection subscribed to it.
   * @param event - the feed's event, after the portfolios saw it (open interest includes its fills)
   * @param wants - whether a channel of a sym has a subscriber
   * @returns the derived pushes, in the order to send them
   */
  onFeed(event: MarketEvent, wants: WantsPush): FeedItem[] {
    const tape = this.tapes.get(event.sym);
    if (!tape) return [];
    switch (event.kind) {
      case 'quote':
        tape.bid = event.bid;
        tape.ask = event.ask;
        return [];
      case 'book':
        tape.bid = event.bids[0]?.[0] ?? Number.NaN;
        tape.ask = event.asks[0]?.[0] ?? Number.NaN;
        return [];
      case 'ticker':
        tape.fedTicker = true;
        return [];
      case 'indexPrice':
        tape.fedIndex = true;
        return [];
      case 'openInterest':
        tape.fedOpenInterest = true;
        return [];
      case 'trade': {
        tape.window.add(event.ts, event.price, event.qty);
        tape.last = event.price;
        const out: FeedItem[] = [];
        if (!tape.fedTicker && wants('TICKER', event.sym)) out.push(this.ticker(tape, event));
        if (!tape.hasMark) this.perpetualPushes(tape, event, Number.NaN, wants, out);
        return out;
      }
      case 'markPrice': {
        tape.hasMark = true;
        const out: FeedItem[] = [];
        this.perpetualPushes(tape, event, event.indexPrice ?? Number.NaN, wants, out);
        return out;
      }
      default:
        return [];
    }
  }

  private ticker(tape: SymTape, at: MarketEvent): FeedItem {
    const volume = Math.round(tape.window.volume * tape.lotScale) / tape.lotScale;
    const event = {
      kind: 'ticker' as const,
      sym: at.sym,
      ts: at.ts,
      recvTs: at.recvTs,
      last: tape.last,
      ...(Number.isNaN(tape.bid) ? {} : { bid: tape.bid }),
      ...(Number.isNaN(tape.ask) ? {} : { ask: tape.ask }),
      high24h: tape.window.high,
      low24h: tape.window.low,
      volume24h: volume,
    };
    return { event, wire: { ...tickerPush(event) } };
  }

  private perpetualPushes(
    tape: SymTape,
    at: MarketEvent,
    indexPrice: number,
    wants: WantsPush,
    out: FeedItem[],
  ): void {
    if (!tape.perp) return;
    const base = { sym: at.sym, ts: at.ts, recvTs: at.recvTs };
    if (!tape.fedIndex && wants('INDEX_PRICE', at.sym)) {
      const price = Number.isNaN(indexPrice)
        ? Math.round(((tape.bid + tape.ask) / 2) * tape.midScale) / tape.midScale
        : indexPrice;
      if (!Number.isNaN(price)) {
        const event = { kind: 'indexPrice' as const, ...base, indexPrice: price };
        out.push({ event, wire: { ...indexPricePush(event) } });
      }
    }
    if (!tape.fedOpenInterest && wants('OPEN_INTEREST', at.sym)) {
      let open = ZERO;
      for (const position of this.positionsOf()) {
        if (position.sym === at.sym) open = open.plus(position.positionQty.abs());
      }
      const event = { kind: 'openInterest' as const, ...base, openInterest: open.toNumber() };
      out.push({ event, wire: { ...openInterestPush(event) } });
    }
  }
}
