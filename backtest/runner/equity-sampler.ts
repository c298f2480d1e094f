import type { Dec, MarketEvent } from '../../core/model/index.ts';
import { asNumber, BAR_INTERVAL_MS } from '../../core/model/index.ts';
import type { DrawdownFigures, EquitySample, PricePoint, PriceSeries } from '../report/index.ts';
import type { EquitySnapshot } from '../sim/index.ts';
import { widerBucket } from './bucket-width.ts';
import { curveOf, type DeferredCurve, peakOf } from './deferred-equity-curve.ts';
import {
  type BarRange,
  computedSnapshot,
  type DeferredSample,
  type EquityBucket,
  emptyBucket,
  isExtreme,
  keepExtreme,
  mergedBuckets,
  NO_BAR_RANGES,
} from './equity-buckets.ts';
import { EquitySampleStats } from './equity-sample-stats.ts';
import type { EquitySamplerOptions } from './equity-sampler-options.ts';
import { sampledPriceSeries } from './sampled-price-series.ts';

/**
 * Samples equity and prices while events pass, in bounded memory. Equity is sampled at most once
 * per `everyMs` of event time, once every event of the sample's time has been applied (so several
 * syms' bars or quotes of one time are all marked in it). Samples fall into time buckets (first
 * `everyMs` wide; when there are more than `maxBuckets`, neighbours merge into wider buckets that
 * never straddle a UTC day, up to a day wide), and each bucket keeps three samples: its lowest,
 * its highest and its equity at its last event, exact (Decimal) but computed only when the curve's
 * point is read. So drawdowns see every bucket's extremes, daily returns see each day's last equity,
 * and the curve holds at most 3 x max(maxBuckets, UTC days holding samples) + 2 points however
 * long the run (Keel's choice: past maxBuckets days the curve grows by one bucket a day rather
 * than lose the daily closes). Prices are the last bar close, trade price or quote mid of each sym;
 * each sym's lowest and highest of them are kept too (of bars, their lows and highs, as the venue
 * marks along each bar's path), so a report need not take them from the closes, and each bucket
 * keeps its bars' range, which the price line draws.
 */
export class EquitySampler {
  private buckets: EquityBucket[] = [];
  private current: EquityBucket | undefined;
  private first: EquitySample | undefined;
  private final: EquitySample | undefined;
  private width: number;
  private readonly maxBuckets: number;
  private readonly estimate: (() => number) | undefined;
  private readonly snapshot: () => EquitySnapshot;
  /** Each sym's last price, by sym and in the order the syms first came. */
  private readonly last = new Map<string, LastPrice>();
  private readonly lastInOrder: LastPrice[] = [];
  /** The sym last priced: runs price one sym again and again. */
  private lastPriced: LastPrice | undefined;
  /** Whether a bar came since the last bucket closed (else the bucket has no ranges to collect). */
  private barsInBucket = false;
  /** Each sym's first price and its time, kept whatever the bucketing (buy & hold starts there). */
  private readonly firstSeen = new Map<string, PricePoint>();
  private nextAt = Number.NEGATIVE_INFINITY;
  private lastTs = Number.NEGATIVE_INFINITY;
  /** Time of the due sample not taken yet (+Infinity when none): taken once its time is over. */
  private pendingTs = Number.POSITIVE_INFINITY;
  /** Without an estimate: the exact equity after the latest event of the pending sample's time. */
  private pendingEquity: Dec | undefined;
  /** The equity at the last event, read before the User Data that followed it (`beforeUserData`). */
  private beforeReaction: DeferredSample | undefined;
  /** Time of the last due sample taken. */
  private takenTs = Number.NEGATIVE_INFINITY;
  private built: DeferredCurve | undefined;
  /** Every sample counts towards the drawdown figures and the mean, kept or not. */
  private readonly stats = new EquitySampleStats();

  /**
   * @param everyMs - smallest event-time distance between two samples (> 0)
   * @param equity - reads the current exact equity (the simulated venue's, marked to market)
   * @param options - a number estimate of equity and the bucket budget
   * @throws RangeError when everyMs or maxBuckets is not positive
   */
  constructor(
    readonly everyMs: number,
    private readonly equity: () => Dec,
    options: EquitySamplerOptions = {},
  ) {
    if (!(everyMs > 0)) throw new RangeError(`EquitySampler: everyMs must be > 0, got ${everyMs}`);
    this.width = everyMs;
    this.maxBuckets = options.maxBuckets ?? 4096;
    if (!(this.maxBuckets >= 2))
      throw new RangeError(`EquitySampler: maxBuckets must be >= 2, got ${this.maxBuckets}`);
    this.estimate = options.estimate;
    this.snapshot = options.snapshot ?? (() => computedSnapshot(this.equity()));
  }

  /**
   * The equity curve so far: the start, each bucket's low, high and close in time order, the end.
   * A point's exact equity is computed when it is first read.
   */
  get curve(): readonly EquitySample[] {
    return this.deferredCurve().samples;
  }

  /**
   * The highest equity of {@link EquitySampler.curve}, computing only the points whose estimate
   * puts them near it.
   * @returns the peak, undefined before any sample
   */
  equityPeak(): Dec | undefined {
    return peakOf(this.deferredCurve());
  }

  /** Drawdown figures over every sample taken (not only those the bounded curve keeps). */
  drawdownFigures(): DrawdownFigures {
    return this.stats.drawdownFigures();
  }

  /** @returns the mean equity over every sample taken, NaN before any */
  meanEquity(): number {
    return this.stats.meanEquity();
  }

  /** Width of the buckets now, ms (for reports). */
  get bucketMs(): number {
    return this.width;
  }

  /**
   * Takes the due sample once the next event comes at a later time, and closes the current bucket
   * when that event starts a new one, before that event (or anything the venue and the strategies
   * do up to its time) changes anything: the sample and the close are the equity once every event
   * of their time was applied. Needed with an estimate; without one, `observe` does it too.
   * @param recvTs - the next event's time
   */
  beforeEvent(recvTs: number): void {
    const taken = recvTs > this.pendingTs ? this.takePending() : undefined;
    const current = this.current;
    if (current !== undefined && Math.floor(recvTs / this.width) !== current.key) this.closeBucket(taken);
  }

  /**
   * Takes the due sample now, before a User Data event changes the equity. A backtest delivers
   * what the venue does at an event's time (a fill of an order the event triggered or a strategy
   * sent on it) with the next event, after the sample of that time; a paper or live session gets
   * it on its own connection, before or after the venue's next market event, so it calls this
   * before each User Data event to keep the same sample, and the same close of the bucket if the
   * next event starts a new one. Needs an estimate (a session's sampler has one).
   */
  beforeUserData(): void {
    if (this.current === undefined || this.estimate === undefined) return;
    if (this.beforeReaction?.ts !== this.lastTs)
      this.beforeReaction = { ts: this.lastTs, snapshot: this.snapshot(), n: this.estimate() };
    if (this.pendingTs !== Number.POSITIVE_INFINITY) this.takePending();
  }

  /**
   * Notes an event's price and marks a sample due, taken once every event of its time was applied
   * (at the next `beforeEvent` of a later time, `endOfEvents`, or without an estimate from the
   * equity after the last event of its time).
   * @param event - a market event the venue and the strategies have just seen
   */
  observe(event: MarketEvent): void {
    const ts = event.recvTs;
    // Without beforeEvent (a paper or live session), the pending sample is taken here, from the
    // equity read after the last event of its time.
    if (ts > this.pendingTs) this.takePending();
    this.lastTs = ts;
    if (this.current === undefined) this.openBucket(ts);
    else if (this.estimate === undefined && Math.floor(ts / this.width) !== this.current.key) {
      this.closeBucket();
      this.openBucket(ts);
    }
    // Only price events make a sample due (as before any event of the other kinds).
    let priced = true;
    switch (event.kind) {
      case 'bar':
        this.notePrice(event.sym, ts, event.close);
        this.noteBarRange(ts, event.low, event.high, BAR_INTERVAL_MS[event.interval]);
        break;
      case 'trade':
        this.notePrice(event.sym, ts, event.price);
        break;
      case 'quote':
        if (event.bid > 0 && event.ask > 0) this.notePrice(event.sym, ts, (event.bid + event.ask) / 2);
        break;
      default:
        priced = false;
    }
    if (priced && ts >= this.nextAt) {
      this.pendingTs = ts;
      this.nextAt = ts + this.everyMs;
    }
    if (ts === this.pendingTs && this.estimate === undefined) this.pendingEquity = this.equity();
  }

  /**
   * Takes the due sample and closes the current bucket once every event was applied, before the
   * venue settles what is left (the end-of-run close), so the last bucket's close is the equity
   * at the last event; `sample` then takes the final equity.
   */
  endOfEvents(): void {
    if (this.current !== undefined) this.closeBucket();
  }

  /**
   * Records the starting equity, before any event; a sample at the same time replaces it.
   * @param ts - start of the run
   */
  start(ts: number): void {
    this.first = { ts, equity: this.equity() };
    this.stats.add(ts, asNumber(this.first.equity));
    this.built = undefined;
  }

  /**
   * Takes the final sample now (after the venue settled) and closes the curve with it.
   * @param ts - virtual time of the sample: not before the last event
   */
  sample(ts: number): void {
    if (this.current !== undefined) this.closeBucket();
    this.final = { ts, equity: this.equity() };
    this.stats.add(ts, asNumber(this.final.equity));
    this.built = undefined;
  }

  /**
   * @returns the price series of every sym seen: its first price exactly, its price at each
   *   bucket's close, and its last price at the end (see {@link sampledPriceSeries}), with the
   *   lowest and highest of all its prices and when (the earliest of equal ones), and on bar
   *   data the length of its bars
   */
  priceSeries(): PriceSeries[] {
    const last = new Map(this.lastInOrder.map((noted) => [noted.sym, noted.price]));
    return sampledPriceSeries(this.firstSeen, this.buckets, this.final, last).map((series) => {
      const noted = this.last.get(series.sym);
      return noted === undefined
        ? series
        : {
            ...series,
            ...(noted.barMs > 0 ? { barMs: noted.barMs } : {}),
            low: { ts: noted.lowTs, price: noted.low },
            high: { ts: noted.highTs, price: noted.high },
          };
    });
  }

  private deferredCurve(): DeferredCurve {
    this.built ??= curveOf(this.first, this.buckets, this.final);
    return this.built;
  }

  private notePrice(sym: string, ts: number, price: number): void {
    let noted = this.lastPriced;
    if (noted?.sym !== sym) {
      noted = this.last.get(sym);
      if (noted === undefined) {
        noted = new LastPrice(sym);
        this.last.set(sym, noted);
        this.lastInOrder.push(noted);
        this.firstSeen.set(sym, { ts, price });
      }
      this.lastPriced = noted;
    }
    // Set in place: a price put in a map is a number boxed anew per event.
    noted.price = price;
    if (price < noted.low) {
      noted.low = price;
      noted.lowTs = ts;
    }
    if (price > noted.high) {
      noted.high = price;
      noted.highTs = ts;
    }
  }

  /**
   * Widens the last priced sym's lowest and highest price, and its range in the current bucket, by
   * a bar's low and high (its close is noted already: a bar whose close lies outside its own low
   * and high still spans it).
   */
  private noteBarRange(ts: number, low: number, high: number, barMs: number): void {
    const noted = this.lastPriced as LastPrice;
    if (low < noted.low) {
      noted.low = low;
      noted.lowTs = ts;
    }
    if (high > noted.high) {
      noted.high = high;
      noted.highTs = ts;
    }
    noted.rangeLow = Math.min(noted.rangeLow, low, noted.price);
    noted.rangeHigh = Math.max(noted.rangeHigh, high, noted.price);
    if (barMs > noted.barMs) noted.barMs = barMs;
    this.barsInBucket = true;
  }

  /** Each sym's bar range in the bucket closing now, which starts the next bucket's afresh. */
  private takeBarRanges(): readonly BarRange[] {
    if (!this.barsInBucket) return NO_BAR_RANGES;
    this.barsInBucket = false;
    const ranges: BarRange[] = [];
    for (const noted of this.lastInOrder) {
      if (noted.rangeLow > noted.rangeHigh) continue;
      ranges.push([noted.sym, noted.rangeLow, noted.rangeHigh]);
      noted.rangeLow = Number.POSITIVE_INFINITY;
      noted.rangeHigh = Number.NEGATIVE_INFINITY;
    }
    return ranges;
  }

  /**
   * Opens the bucket of `ts`; after buckets widened it may be the last closed one (the event that
   * closed it was in another bucket only at the narrower width): that one goes on.
   */
  private openBucket(ts: number): void {
    const key = Math.floor(ts / this.width);
    const last = this.buckets[this.buckets.length - 1];
    if (last?.key === key) {
      this.buckets.pop();
      this.current = last;
      this.built = undefined;
    } else this.current = emptyBucket(key);
  }

  /**
   * Takes the due sample: the equity now, once every event of its time was applied.
   * @returns with an estimate, the snapshot taken when the sample was a new low or high (a close
   *   of the same moment reuses it); else undefined
   */
  private takePending(): DeferredSample | undefined {
    const ts = this.pendingTs;
    this.pendingTs = Number.POSITIVE_INFINITY;
    this.takenTs = ts;
    const bucket = this.current as EquityBucket;
    if (this.estimate === undefined) {
      const equity = this.pendingEquity as Dec;
      this.pendingEquity = undefined;
      const n = asNumber(equity);
      const sample = { ts, snapshot: computedSnapshot(equity), n };
      this.stats.add(ts, n);
      keepExtreme(bucket, n, sample);
      bucket.close = sample;
      return undefined;
    }
    const n = this.estimate();
    this.stats.add(ts, n);
    if (!isExtreme(bucket, n)) return undefined;
    const taken = { ts, snapshot: this.snapshot(), n };
    keepExtreme(bucket, n, taken);
    return taken;
  }

  /**
   * Ends the current bucket: with an estimate its close is the equity now (at its last event), a
   * sample like the others (the drawdowns see it, and it may be the bucket's low or high);
   * without one, its last sample.
   * @param taken - a snapshot taken just before, with nothing applied since: the equity now.
   *   On bars nearly every sample is its bucket's new low or high, and the close so costs no
   *   second capture of the same state.
   */
  private closeBucket(taken?: DeferredSample): void {
    const now = this.pendingTs === Number.POSITIVE_INFINITY ? taken : this.takePending();
    const bucket = this.current as EquityBucket;
    this.current = undefined;
    if (this.estimate !== undefined) {
      const early = this.beforeReaction?.ts === this.lastTs ? this.beforeReaction : undefined;
      // A sample just taken at the same time saw the same equity: measured once.
      const measured = this.lastTs !== this.takenTs ? (early?.n ?? this.estimate()) : undefined;
      const from = now ?? early;
      const close: DeferredSample =
        now?.ts === this.lastTs
          ? now
          : from !== undefined
            ? { ts: this.lastTs, snapshot: from.snapshot, n: from.n }
            : { ts: this.lastTs, snapshot: this.snapshot(), n: measured ?? this.estimate() };
      bucket.close = close;
      if (measured !== undefined) {
        this.stats.add(this.lastTs, measured);
        keepExtreme(bucket, measured, close);
      }
    }
    bucket.prices = this.lastInOrder.map((noted) => [noted.sym, noted.price] as const);
    bucket.ranges = this.takeBarRanges();
    this.buckets.push(bucket);
    this.built = undefined;
    if (this.buckets.length > this.maxBuckets) this.widen();
  }

  /**
   * Merges neighbouring buckets into the next wider width until the budget holds again, or the
   * buckets are a day wide: wider ones would drop days' closes, so from there on the curve keeps
   * one bucket per UTC day holding samples.
   */
  private widen(): void {
    while (this.buckets.length > this.maxBuckets) {
      const wider = widerBucket(this.width);
      if (wider === undefined) return;
      this.buckets = mergedBuckets(this.buckets, wider / this.width);
      this.width = wider;
    }
  }
}

/**
 * A sym's last, lowest and highest price (the earliest of equal ones), its bars' range in the
 * current bucket and the length of its bars, changed in place as its prices come.
 */
class LastPrice {
  price = 0;
  low = Number.POSITIVE_INFINITY;
  lowTs = 0;
  high = Number.NEGATIVE_INFINITY;
  highTs = 0;
  rangeLow = Number.POSITIVE_INFINITY;
  rangeHigh = Number.NEGATIVE_INFINITY;
  /** 0 until a bar of the sym came. */
  barMs = 0;

  constructor(readonly sym: string) {}
}
