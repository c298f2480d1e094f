import type { Logger } from 'pino';
import type { TimerPort } from './timer-port.ts';

/** A move of the estimate this large or larger is logged at warn: the Date header's grain. */
const NOTABLE_MOVE_MS = 1_000;

/**
 * Keel's estimate of the venue server's clock, from the `Date` header of its REST replies. The
 * venue accepts a REST nonce or a WebSocket login timestamp only within ±60 s of its own clock
 * (per public venue docs, code 7000), and the spec has no server-time endpoint; a machine whose
 * clock is a few minutes off would otherwise have every request refused. Nonces and login
 * timestamps are read from this clock.
 *
 * A `Date` of second `D` was stamped while the server's clock read within [D, D + 1 s), at a local
 * time within [sent, received], so the offset lies within [D - received, D + 1 s - sent]. The
 * clock keeps what the replies prove together (the intersection of their intervals, narrowing as
 * replies come), and starts afresh from a reply that contradicts it (a clock was stepped). The
 * estimate moves only when it falls outside what is proven, to the middle of it: a right local
 * clock keeps offset 0 for ever, and a wrong one settles after a few replies instead of following
 * each reply's jitter. One REST client and the private WebSocket of a venue share one clock.
 */
export class ServerClock {
  #offsetMs = 0;
  #lowest = Number.NEGATIVE_INFINITY;
  #highest = Number.POSITIVE_INFINITY;

  /**
   * @param timer - the local clock
   * @param logger - where a move of the estimate is reported
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
   * Takes in one reply's `Date` header (the venue's own replies only).
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
    const agrees = lowest < this.#highest && highest > this.#lowest;
    this.#lowest = agrees ? Math.max(this.#lowest, lowest) : lowest;
    this.#highest = agrees ? Math.min(this.#highest, highest) : highest;
    if (this.#offsetMs >= this.#lowest && this.#offsetMs < this.#highest) return false;
    const before = this.#offsetMs;
    this.#offsetMs = Math.floor((this.#lowest + this.#highest) / 2);
    const fields = { offsetMs: this.#offsetMs, beforeMs: before };
    const message = "the venue's clock differs from this machine's; nonces follow the venue's";
    if (Math.abs(this.#offsetMs - before) >= NOTABLE_MOVE_MS) this.logger.warn(fields, message);
    else this.logger.debug(fields, message);
    return true;
  }
}
