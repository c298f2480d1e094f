import type { RandomSource } from '../../core/kernel/index.ts';
import { type GarchParams, GarchVolatility, normalDraw } from './garch-volatility.ts';
import { formatScaled } from './scaled-integer.ts';
import type { TradingHours } from './trading-hours.ts';
import { bboJson, klineJson, tradeJson } from './wire-shapes.ts';

/** How one instrument's synthetic market behaves. All prices and sizes are on integer grids. */
export interface SyntheticMarketParams {
  readonly sym: string;
  /** Digits after the point of prices; the tick is 1 unit of 10^-priceDecimals. */
  readonly priceDecimals: number;
  /** Digits after the point of sizes; the lot is 1 unit of 10^-qtyDecimals. */
  readonly qtyDecimals: number;
  /** Price at the start of the session. */
  readonly startPrice: number;
  /** Mean time between events at normal volatility, ms. */
  readonly meanEventMs: number;
  /** Share of events that are trades (the rest are quote updates). */
  readonly tradeShare: number;
  /** Median size shown at the best bid or ask, in lots. */
  readonly medianTouchLots: number;
  /** Median trade size, in lots. */
  readonly medianTradeLots: number;
  readonly garch: GarchParams;
  /** Regular hours; omitted = trades around the clock. */
  readonly tradingHours?: TradingHours;
}

/** Receives each generated message: venue time and JSON text. */
export type WireSink = (ts: number, json: string) => void;

/**
 * One instrument's synthetic market: a GARCH-clustered mid price, a quote of 1-4 ticks around it
 * (wider when volatile), trades at the touch or strictly inside the spread that eat the touch
 * size, and 1-minute bars built from exactly those trades. Events arrive faster when volatile.
 */
export class InstrumentSimulator {
  /** Venue time of this instrument's next event, epoch ms. */
  nextTs: number;
  private readonly p: SyntheticMarketParams;
  private readonly rng: RandomSource;
  private readonly vol: GarchVolatility;
  private readonly tickValue: number;
  private logMid: number;
  private lastStepTs: number;
  private needQuote = true;
  private bid = 0;
  private ask = 0;
  private bidLots = 0;
  private askLots = 0;
  private tradeSeq: number;
  private lastTradeTicks = -1;
  private barOpen = -1;
  private barHigh = 0;
  private barLow = 0;
  private barClose = 0;
  private barLots = 0;

  /**
   * @param params - the instrument's market
   * @param rng - its own seeded random source
   * @param startTime - session start, epoch ms
   */
  constructor(params: SyntheticMarketParams, rng: RandomSource, startTime: number) {
    this.p = params;
    this.rng = rng;
    this.vol = new GarchVolatility(params.garch);
    this.tickValue = 10 ** -params.priceDecimals;
    this.logMid = Math.log(params.startPrice);
    this.tradeSeq = 1_000_000 + Math.floor(rng.next() * 1_000_000);
    this.nextTs = params.tradingHours ? params.tradingHours.nextOpen(startTime) : startTime;
    this.lastStepTs = this.nextTs;
  }

  /**
   * Generates the event due at {@link nextTs} (a quote, or a trade followed by the quote it
   * changed) and schedules the next one.
   * @param sink - receives the messages
   * @returns the number of messages emitted
   */
  step(sink: WireSink): number {
    const ts = this.nextTs;
    let emitted: number;
    if (this.needQuote || this.rng.next() >= this.p.tradeShare) {
      this.moveMid(ts);
      this.quoteAroundMid();
      sink(ts, this.bboText(ts));
      emitted = 1;
    } else {
      this.trade(ts, sink);
      emitted = 2;
    }
    this.schedule(ts);
    return emitted;
  }

  /**
   * Emits the closed 1-minute bar ending at `closeTs` when the instrument traded in that minute's
   * hours. A minute without trades is a flat bar at the last trade price with zero volume.
   * @param closeTs - the minute boundary, epoch ms
   * @param sink - receives the KLINE message
   * @returns the number of messages emitted (0 or 1)
   */
  closeBar(closeTs: number, sink: WireSink): number {
    const openTime = closeTs - 60_000;
    if (this.p.tradingHours && !this.p.tradingHours.isOpen(openTime)) return 0;
    if (this.barOpen === -1 && this.lastTradeTicks === -1) return 0;
    const flat = this.barOpen === -1 ? this.lastTradeTicks : -1;
    const d = this.p.priceDecimals;
    sink(
      closeTs,
      klineJson(this.p.sym, {
        openTime,
        open: formatScaled(flat === -1 ? this.barOpen : flat, d),
        high: formatScaled(flat === -1 ? this.barHigh : flat, d),
        low: formatScaled(flat === -1 ? this.barLow : flat, d),
        close: formatScaled(flat === -1 ? this.barClose : flat, d),
        volume: formatScaled(this.barLots, this.p.qtyDecimals),
      }),
    );
    this.barOpen = -1;
    this.barLots = 0;
    return 1;
  }

  private schedule(ts: number): void {
    const intensity = Math.min(3, Math.max(0.5, this.vol.ratio()));
    const wait = Math.max(1, Math.round((-Math.log(1 - this.rng.next()) * this.p.meanEventMs) / intensity));
    let next = ts + wait;
    const hours = this.p.tradingHours;
    if (hours && !hours.isOpen(next)) {
      next = hours.nextOpen(next);
      this.needQuote = true;
    }
    this.nextTs = next;
  }

  private moveMid(ts: number): void {
    this.logMid += this.vol.step(Math.max(1, ts - this.lastStepTs), normalDraw(this.rng));
    this.lastStepTs = ts;
  }

  private quoteAroundMid(): void {
    const widest = 1 + Math.min(3, Math.floor(this.vol.ratio() * 1.5));
    const spread = 1 + Math.floor(this.rng.next() * widest);
    const midTicks = Math.exp(this.logMid) / this.tickValue;
    this.bid = Math.max(1, Math.round(midTicks - spread / 2));
    this.ask = this.bid + spread;
    this.bidLots = this.touchLots();
    this.askLots = this.touchLots();
    this.needQuote = false;
  }

  private touchLots(): number {
    return Math.max(1, Math.round(this.p.medianTouchLots * Math.exp(0.7 * normalDraw(this.rng))));
  }

  private trade(ts: number, sink: WireSink): void {
    const buy = this.rng.next() < 0.5;
    const spread = this.ask - this.bid;
    const inside = spread > 1 && this.rng.next() < 0.2;
    const price = inside
      ? this.bid + 1 + Math.floor(this.rng.next() * (spread - 1))
      : buy
        ? this.ask
        : this.bid;
    let lots = Math.max(1, Math.round(this.p.medianTradeLots * Math.exp(normalDraw(this.rng))));
    if (!inside) lots = Math.min(lots, buy ? this.askLots : this.bidLots);
    this.tradeSeq++;
    sink(
      ts,
      tradeJson(
        this.p.sym,
        String(this.tradeSeq),
        formatScaled(price, this.p.priceDecimals),
        formatScaled(lots, this.p.qtyDecimals),
        buy ? 'BUY' : 'SELL',
        ts,
      ),
    );
    this.addToBar(price, lots);
    if (!inside) this.eatTouch(buy, lots);
    sink(ts, this.bboText(ts));
  }

  /** A trade at the touch takes its size; an emptied level moves one tick away, nudging the mid. */
  private eatTouch(buy: boolean, lots: number): void {
    if (buy) {
      this.askLots -= lots;
      if (this.askLots === 0) {
        this.ask++;
        this.askLots = this.touchLots();
        this.logMid += Math.log1p(this.tickValue / 2 / Math.exp(this.logMid));
      }
    } else {
      this.bidLots -= lots;
      if (this.bidLots === 0) {
        this.bid--;
        this.bidLots = this.touchLots();
        this.logMid -= Math.log1p(this.tickValue / 2 / Math.exp(this.logMid));
      }
    }
  }

  private addToBar(price: number, lots: number): void {
    if (this.barOpen === -1) {
      this.barOpen = price;
      this.barHigh = price;
      this.barLow = price;
    } else {
      if (price > this.barHigh) this.barHigh = price;
      if (price < this.barLow) this.barLow = price;
    }
    this.barClose = price;
    this.barLots += lots;
    this.lastTradeTicks = price;
  }

  private bboText(ts: number): string {
    const d = this.p.priceDecimals;
    const q = this.p.qtyDecimals;
    return bboJson(
      this.p.sym,
      formatScaled(this.bid, d),
      formatScaled(this.bidLots, q),
      formatScaled(this.ask, d),
      formatScaled(this.askLots, q),
      ts,
    );
  }
}
