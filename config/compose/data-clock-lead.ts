import type { Logger } from 'pino';
import type { MarketEvent } from '../../core/model/index.ts';

/** How far the venue's data may run ahead of a live session's clock before it is warned about, ms. */
export const DATA_CLOCK_LEAD_WARN_MS = 5_000;

/** How the log and the result say the venue's data ran ahead of the session's clock. */
const LEAD_TEXT =
  "the venue's market data ran ahead of this machine's clock (a paper venue replaying faster than real time, `keel venue --speed`, or this machine's clock behind the venue's)";

/**
 * Whether a live session's venue stamps its data ahead of the session's clock (this machine's).
 * Fills, orders and trades carry the venue's time, while equity points, denials and the session's
 * start and end carry the session's: against `keel venue --speed 5` the two drift apart by four
 * seconds every second and the result's timelines no longer line up. Warned once in the log when
 * first seen, and in the result with the largest lead. Only quotes and trades are read (a bar is
 * stamped at its close, ahead while it forms).
 */
export class DataClockLead {
  /** The largest lead of the data over the session's clock past the warning's bound, ms. */
  #largestMs: number | undefined;

  /** @param logger - where the first lead past {@link DATA_CLOCK_LEAD_WARN_MS} is warned about */
  constructor(private readonly logger: Logger) {}

  /**
   * Takes in one market event as it arrives.
   * @param event - the event
   * @param sessionTs - the session clock's time now, epoch ms
   */
  observe(event: MarketEvent, sessionTs: number): void {
    if (event.kind !== 'quote' && event.kind !== 'trade') return;
    const leadMs = event.ts - sessionTs;
    if (leadMs <= Math.max(DATA_CLOCK_LEAD_WARN_MS, this.#largestMs ?? 0)) return;
    if (this.#largestMs === undefined)
      this.logger.warn(
        { leadMs },
        `${LEAD_TEXT}: the result's fills and trades will not line up with its equity`,
      );
    this.#largestMs = leadMs;
  }

  /**
   * The result's warning, when the data ran ahead.
   * @returns a sentence with the largest lead seen, or undefined when it never passed {@link DATA_CLOCK_LEAD_WARN_MS}
   */
  warning(): string | undefined {
    if (this.#largestMs === undefined) return undefined;
    const leadSec = Math.round(this.#largestMs / 1000);
    return `${LEAD_TEXT}, by up to ${leadSec} s: the fills, orders and trades carry the venue's time, the equity points, denials and the session's start and end this machine's, so they do not line up`;
  }
}
