import {
  isUsEquitySessionOpen,
  nextUsEquitySessionClose,
  nextUsEquitySessionOpen,
} from '../../core/kernel/index.ts';

/** The next closes of both sessions after a time, epoch ms. */
export interface SessionCloses {
  /** 16:00 New York of the regular session. */
  readonly regular: number;
  /** 20:00 New York of the extended session. */
  readonly extended: number;
}

const MINUTE_MS = 60_000;

/**
 * The US equity sessions (core/kernel's `isUsEquitySessionOpen`: regular 09:30-16:00 New York on
 * weekdays, extended from 04:00 to 20:00; no holiday calendar), looked up once per minute: the
 * sessions change only on whole New York minutes, which are whole UTC minutes, so the matching
 * path pays for a time-zone lookup once a minute of data, not once an event.
 */
export class UsEquityHours {
  private minute = Number.NaN;
  private regular = false;
  private extended = false;

  /**
   * Whether an order may trade at a time.
   * @param ts - epoch ms
   * @param extendedTrading - the order allows pre-market and after-hours trading
   * @returns true inside its session
   */
  openAt(ts: number, extendedTrading: boolean): boolean {
    const minute = Math.floor(ts / MINUTE_MS);
    if (minute !== this.minute) {
      this.minute = minute;
      this.regular = isUsEquitySessionOpen(ts);
      this.extended = isUsEquitySessionOpen(ts, { extended: true });
    }
    return extendedTrading ? this.extended : this.regular;
  }

  /**
   * Whether an order's session meets a span of time (a bar's): it is open at the start, a regular
   * session opens inside the span, or, with extended hours, it is open at the span's last
   * millisecond (a span shorter than the 16 hours of an extended session meets it only so).
   * @param from - the span's start, epoch ms
   * @param to - its end (exclusive)
   * @param extendedTrading - the order allows pre-market and after-hours trading
   * @returns true when the order may trade somewhere inside the span
   */
  openDuring(from: number, to: number, extendedTrading: boolean): boolean {
    if (this.openAt(from, extendedTrading)) return true;
    if (nextUsEquitySessionOpen(from) < to) return true;
    return extendedTrading && this.openAt(to - 1, true);
  }

  /**
   * The next closes of the regular and the extended session after a time (weekdays; no holiday
   * calendar): an order that rested through one of them has been away from the market.
   * @param ts - epoch ms
   * @returns the first 16:00 and the first 20:00 New York after `ts`
   */
  nextCloses(ts: number): SessionCloses {
    return {
      regular: nextUsEquitySessionClose(ts),
      extended: nextUsEquitySessionClose(ts, { extended: true }),
    };
  }
}
