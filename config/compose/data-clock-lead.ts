import type { Logger } from 'pino';
import type { MarketEvent } from '../../core/model/index.ts';

/** How far the venue's data may run ahead of the venue's own clock before it is warned about, ms. */
export const DATA_CLOCK_LEAD_WARN_MS = 5_000;

/** Keel's estimate of the venue's clock, from the `Date` headers of its replies (`ServerClock`). */
export interface VenueClockEstimate {
  /** @returns the venue's time as estimated, epoch ms */
  now(): number;
}

/** How the log and the result say the venue's data ran ahead of its own clock. */
const LEAD_TEXT =
  "the venue's market data ran ahead of the venue's own clock (the Date header of its replies, as Keel estimates it: a venue whose data and clock disagree)";

/**
 * Whether a live session's venue stamps its data ahead of its own clock, the one Keel takes the
 * venue's time from (the `Date` header) and the session's clock is: Keel counts a fill stamped
 * ahead of that clock only as that clock's time when it arrived, and the result's fills, orders
 * and trades then run ahead of what the venue's clock said. A paper venue replaying in realtime
 * pacing, at any speed, stamps its data and its `Date` header on one clock, so it is no such
 * venue. Warned once in the log when first seen, and in the result with the largest lead. Only
 * quotes and trades are read (a bar is stamped at its close, ahead while it forms).
 */
export class DataClockLead {
  /** The largest lead of the data over the venue's clock past the warning's bound, ms. */
  #largestMs: number | undefined;

  /**
   * @param logger - where the first lead past {@link DATA_CLOCK_LEAD_WARN_MS} is warned about
   * @param venueClock - Keel's estimate of the venue's clock
   */
  constructor(
    private readonly logger: Logger,
    private readonly venueClock: VenueClockEstimate,
  ) {}

  /**
   * Takes in one market event as it arrives.
   * @param event - the event
   */
  observe(event: MarketEvent): void {
    if (event.kind !== 'quote' && event.kind !== 'trade') return;
    const leadMs = event.ts - this.venueClock.now();
    if (leadMs <= Math.max(DATA_CLOCK_LEAD_WARN_MS, this.#largestMs ?? 0)) return;
    if (this.#largestMs === undefined)
      this.logger.warn({ leadMs }, `${LEAD_TEXT}: the result's fills and trades will run ahead of it`);
    this.#largestMs = leadMs;
  }

  /**
   * The result's warning that the data ran ahead of the venue's clock.
   * @returns it as a sentence with the largest lead seen past {@link DATA_CLOCK_LEAD_WARN_MS};
   *   none when the data never ran that far ahead
   */
  warnings(): string[] {
    if (this.#largestMs === undefined) return [];
    const leadSec = Math.round(this.#largestMs / 1000);
    return [
      `${LEAD_TEXT}, by up to ${leadSec} s: the fills, orders and trades carry the venue's data times, ahead of the clock the venue answered on`,
    ];
  }
}
