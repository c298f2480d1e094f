import type { Logger } from 'pino';
import type { TimerPort } from './timer-port.ts';

/** Offsets smaller than this are logged at debug: within a second is the Date header's grain. */
const NOTABLE_OFFSET_MS = 1_000;

/**
 * Keel's estimate of the venue server's clock, from the `Date` header of its REST replies. The
 * venue accepts a REST nonce or a WebSocket login timestamp only within ±60 s of its own clock
 * (per public venue docs, code 7000), and the spec has no server-time endpoint; a machine whose
 * clock is a few minutes off would otherwise have every request refused. Nonces and login
 * timestamps are read from this clock.
 *
 * The estimate moves only when a reply proves it wrong: a `Date` of second `D` was stamped while
 * the server's clock read within [D, D + 1 s), at a local time within [sent, received], so the
 * offset lies within [D - received, D + 1 s - sent]. An offset inside that interval is kept (a
 * right local clock keeps offset 0 for ever); one outside moves to its middle. One REST client
 * and the private WebSocket of a venue share one clock.
 */
export class ServerClock {
  #offsetMs = 0;

  /**
   * @param timer - the local clock
   * @param logger - where a changed estimate is reported
   */
  constructor(
    private readonly timer: TimerPort,
    private readonly logger: Logger,
  ) {}

  /** The server's clock minus the local one, ms, as last estimated (0 until a reply proves otherwise). */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  /** @returns the server's time as estimated, epoch ms */
  now(): number {
    return this.timer.now() + this.#offsetMs;
  }

  /** @returns the server's time as estimated, in whole Unix seconds (the nonce and login timestamp) */
  nowSeconds(): number {
    return Math.floor(this.now() / 1000);
  }

  /**
   * Takes in one reply's `Date` header.
   * @param date - the header's value (RFC 7231 IMF-fixdate); undefined or unparseable is ignored
   * @param sentMs - local time the request was sent, epoch ms
   * @param receivedMs - local time the reply arrived, epoch ms
   * @returns true when the estimate moved
   */
  observe(date: string | undefined, sentMs: number, receivedMs: number): boolean {
    if (date === undefined) return false;
    const stamped = Date.parse(date);
    if (!Number.isFinite(stamped)) return false;
    const lowest = stamped - receivedMs;
    const highest = stamped + 1_000 - sentMs;
    if (this.#offsetMs >= lowest && this.#offsetMs < highest) return false;
    const before = this.#offsetMs;
    this.#offsetMs = Math.round((lowest + highest) / 2);
    const fields = { offsetMs: this.#offsetMs, beforeMs: before };
    const message = "the venue's clock differs from this machine's; nonces follow the venue's";
    if (Math.abs(this.#offsetMs) >= NOTABLE_OFFSET_MS) this.logger.warn(fields, message);
    else this.logger.debug(fields, message);
    return true;
  }
}
