import type { Dec, MarketEvent } from '../../core/model/index.ts';
import { asNumber } from '../../core/model/index.ts';
import {
  type DrawdownFigures,
  DrawdownTracker,
  type EquitySample,
  type PricePoint,
  type PriceSeries,
} from '../report/index.ts';
import { widerBucket } from './bucket-width.ts';

/** A sample whose exact equity is computed only when the curve is read. */
interface DeferredSample {
  readonly ts: number;
  readonly equity: () => Dec;
}

/**
 * One time bucket of the curve: its lowest and highest sample (chosen on the numbers `lowN` and
 * `highN`) and its equity at the last event, all deferred until the curve is read, so samples
 * dropped when buckets merge never cost Decimal work.
 */
interface Bucket {
  key: number;
  low: DeferredSample | undefined;
  lowN: number;
  high: DeferredSample | undefined;
  highN: number;
  close: DeferredSample | undefined;
  /** Last price of each sym at the close. */
  prices: readonly (readonly [string, number])[];
}

/** How the sampler keeps its curve bounded. */
export interface EquitySamplerOptions {
  /**
   * Equity on numbers, read at every due sample; with it, the exact equity is computed only for a
   * bucket's new low or high and at its close, and `beforeEvent` must be called before each event.
   * Without it, every due sample is exact.
   */
  readonly estimate?: () => number;
  /**
   * With an estimate: captures the exact equity now without computing it (the simulated venue's
   * `equitySnapshot`), so a candidate low, high or close costs Decimal work only if it is still
   * in the curve when the curve is read. Without it, each candidate is computed at once.
   */
  readonly snapshot?: () => () => Dec;
  /** Most buckets kept before they are merged into wider ones; default 4096. */
  readonly maxBuckets?: number;
}

/**
 * Samples equity and prices while events pass, in bounded memory. Equity is sampled at most once
 * per `everyMs` of event time. Samples fall into time buckets (first `everyMs` wide; when there
 * are more than `maxBuckets`, neighbours merge into wider buckets that still never straddle a UTC
 * day while a day is wider), and each bucket keeps three samples: its lowest, its highest and
 * its equity at its last event, exact (Decimal) but computed only when the curve is read. So drawdowns see every bucket's extremes, daily returns see
 * each day's last equity, and the curve holds at most 3 x maxBuckets points however long the run
 * (Keel's choice). Prices are the last bar close, trade price or quote mid of each sym.
 */
export class EquitySampler {
  private readonly buckets: Bucket[] = [];
  private current: Bucket | undefined;
  private first: EquitySample | undefined;
  private final: EquitySample | undefined;
  private width: number;
  private readonly maxBuckets: number;
  private readonly estimate: (() => number) | undefined;
  private readonly snapshot: () => () => Dec;
  private readonly last = new Map<string, number>();
  /** Each sym's first price and its time, kept whatever the bucketing (buy & hold starts there). */
  private readonly firstSeen = new Map<string, PricePoint>();
  private nextAt = Number.NEGATIVE_INFINITY;
  private lastTs = Number.NEGATIVE_INFINITY;
  private built: EquitySample[] | undefined;
  private readonly drawdowns = new DrawdownTracker();
  private equitySum = 0;
  private samples = 0;

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
    this.snapshot =
      options.snapshot ??
      (() => {
        const exact = this.equity();
        return () => exact;
      });
  }

  /** The equity curve so far: the start, each bucket's low, high and close in time order, the end. */
  get curve(): readonly EquitySample[] {
    this.built ??= this.build();
    return this.built;
  }

  /** Drawdown figures over every sample taken (not only those the bounded curve keeps). */
  drawdownFigures(): DrawdownFigures {
    return this.drawdowns.figures();
  }

  /** @returns the mean equity over every sample taken, NaN before any */
  meanEquity(): number {
    return this.equitySum / this.samples;
  }

  /** Width of the buckets now, ms (for reports). */
  get bucketMs(): number {
    return this.width;
  }

  /**
   * Closes the current bucket when the next event starts a new one, before that event changes
   * anything: the close is the equity at the bucket's last event. Needed with an estimate.
   * @param recvTs - the next event's time
   */
  beforeEvent(recvTs: number): void {
    const current = this.current;
    if (current !== undefined && Math.floor(recvTs / this.width) !== current.key) this.closeBucket();
  }

  /**
   * Notes an event's price and samples when due.
   * @param event - a market event the venue and the strategies have just seen
   */
  observe(event: MarketEvent): void {
    const ts = event.recvTs;
    this.lastTs = ts;
    if (this.current === undefined) this.open(ts);
    else if (this.estimate === undefined && Math.floor(ts / this.width) !== this.current.key) {
      this.closeBucket();
      this.open(ts);
    }
    switch (event.kind) {
      case 'bar':
        this.notePrice(event.sym, ts, event.close);
        break;
      case 'trade':
        this.notePrice(event.sym, ts, event.price);
        break;
      case 'quote':
        if (event.bid > 0 && event.ask > 0) this.notePrice(event.sym, ts, (event.bid + event.ask) / 2);
        break;
      default:
        return;
    }
    if (ts >= this.nextAt) this.due(ts);
  }

  /**
   * Records the starting equity, before any event; a sample at the same time replaces it.
   * @param ts - start of the run
   */
  start(ts: number): void {
    this.first = { ts, equity: this.equity() };
    this.measure(ts, asNumber(this.first.equity));
    this.built = undefined;
  }

  /**
   * Takes the final sample now (after the venue settled) and closes the curve with it.
   * @param ts - virtual time of the sample
   */
  sample(ts: number): void {
    if (this.current !== undefined) this.closeBucket();
    this.final = { ts, equity: this.equity() };
    this.measure(ts, asNumber(this.final.equity));
    this.built = undefined;
  }

  /**
   * @returns the price series of every sym seen, in the order they first appeared: its first
   *   price exactly, its price at each bucket's close, and its last price at the end, so buy &
   *   hold compares the true first and last price however the buckets merged
   */
  priceSeries(): PriceSeries[] {
    const series = new Map<string, { ts: number; price: number }[]>();
    for (const [sym, point] of this.firstSeen) series.set(sym, [{ ...point }]);
    const add = (ts: number, prices: readonly (readonly [string, number])[]): void => {
      for (const [sym, price] of prices) {
        let points = series.get(sym);
        if (points === undefined) {
          points = [];
          series.set(sym, points);
        }
        const lastPoint = points[points.length - 1];
        // The first point stays: a later price at the same time does not replace it.
        if (lastPoint !== undefined && lastPoint.ts === ts) {
          if (points.length > 1) lastPoint.price = price;
        } else if (lastPoint === undefined || lastPoint.ts < ts) points.push({ ts, price });
      }
    };
    for (const bucket of this.buckets) if (bucket.close) add(bucket.close.ts, bucket.prices);
    if (this.final !== undefined) add(this.final.ts, [...this.last]);
    return [...series].map(([sym, points]) => ({ sym, points }));
  }

  private notePrice(sym: string, ts: number, price: number): void {
    this.last.set(sym, price);
    if (!this.firstSeen.has(sym)) this.firstSeen.set(sym, { ts, price });
  }

  private open(ts: number): void {
    this.current = {
      key: Math.floor(ts / this.width),
      low: undefined,
      lowN: Number.POSITIVE_INFINITY,
      high: undefined,
      highN: Number.NEGATIVE_INFINITY,
      close: undefined,
      prices: [],
    };
  }

  private due(ts: number): void {
    this.nextAt = ts + this.everyMs;
    const bucket = this.current as Bucket;
    if (this.estimate === undefined) {
      const equity = this.equity();
      const sample = { ts, equity: () => equity };
      const n = asNumber(equity);
      this.measure(ts, n);
      if (n < bucket.lowN) [bucket.low, bucket.lowN] = [sample, n];
      if (n > bucket.highN) [bucket.high, bucket.highN] = [sample, n];
      bucket.close = sample;
      return;
    }
    const n = this.estimate();
    this.measure(ts, n);
    if (n >= bucket.lowN && n <= bucket.highN) return;
    const sample = { ts, equity: this.snapshot() };
    if (n < bucket.lowN) [bucket.low, bucket.lowN] = [sample, n];
    if (n > bucket.highN) [bucket.high, bucket.highN] = [sample, n];
  }

  /** Every sample counts towards the drawdown figures and the mean, kept or not. */
  private measure(ts: number, equity: number): void {
    this.drawdowns.add(ts, equity);
    this.equitySum += equity;
    this.samples++;
  }

  private closeBucket(): void {
    const bucket = this.current as Bucket;
    this.current = undefined;
    if (this.estimate !== undefined) bucket.close = { ts: this.lastTs, equity: this.snapshot() };
    bucket.prices = [...this.last];
    this.buckets.push(bucket);
    this.built = undefined;
    if (this.buckets.length > this.maxBuckets) this.widen();
  }

  /** Merges neighbouring buckets into the next wider width until the budget holds again. */
  private widen(): void {
    while (this.buckets.length > this.maxBuckets) {
      const wider = widerBucket(this.width);
      const ratio = wider / this.width;
      const merged: Bucket[] = [];
      for (const bucket of this.buckets) {
        const key = Math.floor(bucket.key / ratio);
        const into = merged[merged.length - 1];
        if (into === undefined || into.key !== key) {
          merged.push({ ...bucket, key });
          continue;
        }
        if (bucket.lowN < into.lowN) [into.low, into.lowN] = [bucket.low, bucket.lowN];
        if (bucket.highN > into.highN) [into.high, into.highN] = [bucket.high, bucket.highN];
        if (bucket.close !== undefined) {
          into.close = bucket.close;
          into.prices = bucket.prices;
        }
      }
      this.buckets.length = 0;
      for (const bucket of merged) this.buckets.push(bucket);
      this.width = wider;
    }
  }

  private build(): EquitySample[] {
    const out: EquitySample[] = [];
    const push = (sample: EquitySample | undefined): void => {
      if (sample === undefined) return;
      const previous = out[out.length - 1];
      if (previous !== undefined && previous.ts === sample.ts) out[out.length - 1] = sample;
      else if (previous === undefined || previous.ts < sample.ts) out.push(sample);
    };
    const materialize = (d: DeferredSample | undefined): EquitySample | undefined =>
      d === undefined ? undefined : { ts: d.ts, equity: d.equity() };
    push(this.first);
    for (const bucket of this.buckets) {
      const points = [bucket.low, bucket.high].filter((s): s is DeferredSample => s !== undefined);
      points.sort((a, b) => a.ts - b.ts);
      for (const point of points) push(materialize(point));
      push(materialize(bucket.close));
    }
    push(this.final);
    return out;
  }
}
