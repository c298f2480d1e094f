import type { Dec, MarketEvent } from '../../core/model/index.ts';
import type { EquitySample, PriceSeries } from '../report/index.ts';

/**
 * Samples equity and prices while events pass: at most one sample per `everyMs` of event time
 * (Keel's choice: equity is Decimal work, so it is not recomputed for every quote); the runner
 * takes the last sample itself. Prices are the last bar close, trade price or quote mid of each sym.
 */
export class EquitySampler {
  readonly curve: EquitySample[] = [];
  private readonly prices = new Map<string, { ts: number; price: number }[]>();
  private readonly last = new Map<string, number>();
  private nextAt = Number.NEGATIVE_INFINITY;

  /**
   * @param everyMs - smallest event-time distance between two samples
   * @param equity - reads the current equity (the simulated venue's, marked to market)
   */
  constructor(
    private readonly everyMs: number,
    private readonly equity: () => Dec,
  ) {}

  /**
   * Notes an event's price and samples when due.
   * @param event - a market event the venue has just seen
   */
  observe(event: MarketEvent): void {
    switch (event.kind) {
      case 'bar':
        this.last.set(event.sym, event.close);
        break;
      case 'trade':
        this.last.set(event.sym, event.price);
        break;
      case 'quote':
        if (event.bid > 0 && event.ask > 0) this.last.set(event.sym, (event.bid + event.ask) / 2);
        break;
      default:
        return;
    }
    if (event.recvTs >= this.nextAt) this.sample(event.recvTs);
  }

  /**
   * Records the starting equity, before any event; the first event at the same time replaces it.
   * @param ts - start of the run
   */
  start(ts: number): void {
    this.curve.push({ ts, equity: this.equity() });
  }

  /**
   * Takes a sample now.
   * @param ts - virtual time of the sample
   */
  sample(ts: number): void {
    const previous = this.curve[this.curve.length - 1];
    const sample = { ts, equity: this.equity() };
    if (previous !== undefined && previous.ts === ts) this.curve[this.curve.length - 1] = sample;
    else this.curve.push(sample);
    for (const [sym, price] of this.last) {
      let series = this.prices.get(sym);
      if (series === undefined) {
        series = [];
        this.prices.set(sym, series);
      }
      const lastPoint = series[series.length - 1];
      if (lastPoint !== undefined && lastPoint.ts === ts) lastPoint.price = price;
      else series.push({ ts, price });
    }
    this.nextAt = ts + this.everyMs;
  }

  /** @returns the price series of every sym seen, in the order they first appeared */
  priceSeries(): PriceSeries[] {
    return [...this.prices].map(([sym, points]) => ({ sym, points }));
  }
}
