import { D, type Dec } from '../model/index.ts';
import type { KillSwitchConfig } from './risk-limits.ts';

const DAY_MS = 86_400_000;

/**
 * An amount as the trip's sentence shows it: to 8 decimals at most. An equity can carry a
 * quotient's 40-digit tail (an average price of fills is one), which says nothing to an operator;
 * the limits are still compared exactly.
 */
function shown(amount: Dec): string {
  return amount.toDecimalPlaces(8).toFixed();
}

/**
 * A breached drawdown percentage as the trip's sentence shows it: to 2 decimals, or to as many as
 * the limit has. The limit is a point of that grid, so a percentage at or above it never reads
 * below it (a 0.0012 % breach of a 0.001 % limit read "0 %" when rounded to 2 decimals).
 */
function shownPercent(percent: Dec, limit: Dec): string {
  return percent.toDecimalPlaces(Math.max(2, limit.decimalPlaces())).toFixed();
}

/** What the kill switch has observed: the UTC day, its start-of-day equity and the high-water mark. */
export interface KillSwitchMarks {
  /** The UTC day of the start-of-day equity, in days since the epoch. */
  readonly day: number;
  readonly startOfDay: Dec;
  readonly highWater: Dec;
}

/**
 * The UTC day of a time, as the kill switch counts days.
 * @param now - epoch ms
 * @returns days since the epoch
 */
export function utcDayOf(now: number): number {
  return Math.floor(now / DAY_MS);
}

/**
 * Watches equity for the daily loss and drawdown limits. The start-of-day equity is the first
 * equity observed in each UTC day; the high-water mark is the highest equity observed. Both
 * come from observations (the gate observes on every intent; the kernel after every fill and
 * account update, and on market data at most once a second), so nothing here reads a clock.
 */
export class KillSwitch {
  readonly #config: KillSwitchConfig;
  #day: number | undefined;
  #startOfDay: Dec | undefined;
  #highWater: Dec | undefined;

  /**
   * @param config - the limits; with neither set, the switch never trips
   */
  constructor(config: KillSwitchConfig) {
    this.#config = config;
  }

  /** @returns the day, start-of-day equity and high-water mark observed, or undefined before any observation */
  marks(): KillSwitchMarks | undefined {
    if (this.#day === undefined || this.#startOfDay === undefined || this.#highWater === undefined)
      return undefined;
    return { day: this.#day, startOfDay: this.#startOfDay, highWater: this.#highWater };
  }

  /**
   * Takes back marks an earlier run observed (a restart): the high-water mark always, the
   * start-of-day equity only when it is of the day `now` falls in (a new UTC day starts from its
   * first observation, as it does without a restart).
   * @param marks - the earlier run's marks
   * @param now - the current time, epoch ms
   */
  restore(marks: KillSwitchMarks, now: number): void {
    this.#highWater = marks.highWater;
    if (marks.day !== utcDayOf(now)) return;
    this.#day = marks.day;
    this.#startOfDay = marks.startOfDay;
  }

  /** Whether any limit is configured (otherwise observing is skipped: it costs Decimal work). */
  get armed(): boolean {
    return this.#config.dailyLossLimit !== undefined || this.#config.maxDrawdown !== undefined;
  }

  /**
   * Records an equity observation and tells whether a limit is breached.
   * @param now - observation time, epoch ms
   * @param equity - portfolio equity
   * @returns a sentence naming the breached limit, or undefined
   */
  observe(now: number, equity: Dec): string | undefined {
    const day = utcDayOf(now);
    if (this.#day !== day || this.#startOfDay === undefined) {
      this.#day = day;
      this.#startOfDay = equity;
    }
    if (this.#highWater === undefined || equity.greaterThan(this.#highWater)) this.#highWater = equity;
    // Equity at or above both marks cannot breach anything: skip the Decimal arithmetic.
    if (equity.greaterThanOrEqualTo(this.#startOfDay) && equity.greaterThanOrEqualTo(this.#highWater))
      return undefined;
    const { dailyLossLimit, maxDrawdown } = this.#config;
    const loss = this.#startOfDay.sub(equity);
    if (dailyLossLimit !== undefined && loss.greaterThanOrEqualTo(dailyLossLimit)) {
      return `kill switch: daily loss ${shown(loss)} reached the limit ${dailyLossLimit.toFixed()} (equity ${shown(equity)}, start of UTC day ${shown(this.#startOfDay)})`;
    }
    // A drawdown is a fraction of a positive high-water mark; `isPositive()` would let 0 through.
    if (maxDrawdown !== undefined && this.#highWater.gt(0)) {
      const drawdown = this.#highWater.sub(equity).div(this.#highWater);
      if (drawdown.greaterThanOrEqualTo(maxDrawdown)) {
        const limit = D(maxDrawdown).mul(100);
        return `kill switch: drawdown ${shownPercent(drawdown.mul(100), limit)} % from the high-water mark ${shown(this.#highWater)} reached the limit ${limit.toFixed()} %`;
      }
    }
    return undefined;
  }

  /** Forgets the start-of-day equity and high-water mark, so the next observation re-bases both. */
  rebase(): void {
    this.#day = undefined;
    this.#startOfDay = undefined;
    this.#highWater = undefined;
  }
}
