import type { Dec } from '../model/index.ts';

/** One equity sample: the portfolio's equity at time `ts` (epoch ms). */
export interface EquityPoint {
  readonly ts: number;
  readonly equity: Dec;
}

/**
 * An append-only equity time series. The caller decides when to sample (every bar, every fill,
 * once a minute): the portfolio never samples on its own, so the hot path stays Decimal-free.
 */
export class EquitySeries {
  readonly #points: EquityPoint[] = [];

  /**
   * Appends a sample; a sample at the same `ts` as the last one replaces it, so sampling twice
   * at one instant does not duplicate the point.
   * @param ts - sample time, epoch ms, not earlier than the last sample
   * @param equity - equity at that time
   * @throws RangeError when `ts` is earlier than the last sample
   */
  add(ts: number, equity: Dec): void {
    const last = this.#points[this.#points.length - 1];
    if (last !== undefined && ts < last.ts) {
      throw new RangeError(`equity sample at ${ts} is earlier than the last one at ${last.ts}`);
    }
    if (last !== undefined && ts === last.ts) {
      this.#points[this.#points.length - 1] = { ts, equity };
    } else {
      this.#points.push({ ts, equity });
    }
  }

  /**
   * The samples so far, oldest first.
   * @returns a read-only view of the series
   */
  points(): readonly EquityPoint[] {
    return this.#points;
  }
}
