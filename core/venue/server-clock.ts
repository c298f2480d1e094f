import type { Logger } from 'pino';
import type { TimerPort } from './timer-port.ts';

/** A move of the estimate this large or larger is logged at warn: the Date header's grain. */
const NOTABLE_MOVE_MS = 1_000;

/**
 * Keel's paper-venue extension: a REST reply header stating how many milliseconds the venue's clock
 * (its `Date` header) moves per millisecond of real time, e.g. `5` for `keel venue --speed 5`. A
 * real venue sends none: its clock runs at real time.
 */
export const CLOCK_RATE_HEADER = 'x-keel-clock-rate';

/**
 * How long replies must agree at real time, ms, before they disprove a stated rate they bore out
 * before (Keel's choice): over a shorter span a `Date` header that stood still (a sped-up paper
 * venue whose feed held for a moment) agrees at real time within its 1 s grain too. Over 3 s a
 * clock agreeing at real time moved at about 2/3x to 4/3x of it.
 */
const REAL_TIME_PROOF_MS = 3_000;

/** The largest clock rate believed (Keel's choice): anything above is taken for a broken header. */
const MAX_CLOCK_RATE = 100_000;

/**
 * The venue clock's rate a reply states in {@link CLOCK_RATE_HEADER}.
 * @param header - the header's value; undefined when the reply has none
 * @returns the rate, 1 (real time) when the reply states none or one that is not a positive
 *   number up to 100 000
 */
export function clockRateOf(header: string | undefined): number {
  const rate = header === undefined ? Number.NaN : Number(header);
  return Number.isFinite(rate) && rate > 0 && rate <= MAX_CLOCK_RATE ? rate : 1;
}

/**
 * What the replies prove of the offset at one rate: the intersection of their intervals since it
 * was last started afresh.
 */
interface Proof {
  /** How many ms the server's clock moves per local ms, as this proof takes it. */
  readonly rate: number;
  lowest: number;
  highest: number;
  /** Replies taken in since it was started afresh. */
  replies: number;
  /** Local time the first of those replies arrived, epoch ms. */
  since: number;
}

/** A proof at `rate` that nothing has narrowed yet. */
function freshProof(rate: number): Proof {
  return {
    rate,
    lowest: Number.NEGATIVE_INFINITY,
    highest: Number.POSITIVE_INFINITY,
    replies: 0,
    since: Number.POSITIVE_INFINITY,
  };
}

/**
 * Takes one reply into a proof: narrowed to what it and the earlier replies prove together, or
 * started afresh from it when they contradict one another.
 * @returns `first` when there were no earlier replies, else whether this one agreed with them
 */
function takeReply(
  proof: Proof,
  stamped: number,
  sentMs: number,
  receivedMs: number,
): 'first' | 'agrees' | 'contradicts' {
  const lowest = stamped - receivedMs * proof.rate;
  const highest = stamped + 1_000 - sentMs * proof.rate;
  const agrees = lowest < proof.highest && highest > proof.lowest;
  const outcome = proof.replies === 0 ? 'first' : agrees ? 'agrees' : 'contradicts';
  proof.lowest = agrees ? Math.max(proof.lowest, lowest) : lowest;
  proof.highest = agrees ? Math.min(proof.highest, highest) : highest;
  proof.replies = agrees ? proof.replies + 1 : 1;
  if (outcome !== 'agrees') proof.since = receivedMs;
  return outcome;
}

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
 *
 * A venue whose clock runs faster than real time (Keel's paper venue replaying at a speed, which
 * states it in {@link CLOCK_RATE_HEADER}) is followed at that rate: the local clock's time is
 * scaled by it, so the estimate keeps pace between replies instead of falling behind by the
 * difference every second. Without the header the rate is 1, as every real venue's. The stated
 * rate is checked against the `Date` headers themselves, which the clock trusts anyway: what the
 * replies prove is kept at real time too, and a reply that contradicts the earlier ones at the
 * stated rate but agrees with them at real time (a real-time venue, or a proxy, sending a bogus
 * rate: followed, it would put every nonce past the ±60 s window) makes the clock follow real
 * time instead, warned of once. Once the replies have borne the stated rate out (agreed at it where
 * they contradicted real time), that takes replies agreeing at real time for at least 3 s: a
 * sped-up paper venue whose feed holds for a moment holds its `Date` header too, and replies inside
 * the hold agree at real time within the header's second without showing its clock runs at it.
 * It follows the stated rate again when a reply contradicts real time and agrees with that rate.
 */
export class ServerClock {
  /** The server's clock minus the local one scaled by the rate followed, ms. */
  #offsetMs = 0;
  /** What the replies prove at the rate followed. */
  #followed: Proof = freshProof(1);
  /**
   * What they prove at the other rate the venue's clock may run at: real time while a stated rate
   * is followed, the stated rate while the replies disproved it; none when the venue states none.
   */
  #other: Proof | undefined;
  /** The rate the replies state (1 while they state none). */
  #stated = 1;
  /**
   * Whether replies agreed at the stated rate where they contradicted real time: the venue's clock
   * was seen running at it, so a pause of its `Date` header is taken for a stall, not real time.
   */
  #statedBorneOut = false;
  /** Local time a reply last contradicted the rate followed since it was followed, epoch ms. */
  #contradictedAt = Number.NEGATIVE_INFINITY;

  /**
   * @param timer - the local clock
   * @param logger - where a move of the estimate is reported
   */
  constructor(
    private readonly timer: TimerPort,
    private readonly logger: Logger,
  ) {}

  /**
   * The server's clock minus the local one now, ms, as estimated (0 until a reply proves
   * otherwise); constant between moves of the estimate at rate 1.
   */
  get offsetMs(): number {
    const local = this.timer.now();
    return local * this.#followed.rate + this.#offsetMs - local;
  }

  /**
   * How many ms the server's clock moves per local ms: 1 unless the venue states another rate
   * that its replies do not disprove.
   */
  get rate(): number {
    return this.#followed.rate;
  }

  /** @returns the server's time as estimated, epoch ms */
  now(): number {
    return this.timer.now() * this.#followed.rate + this.#offsetMs;
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
   * @param rate - the rate the reply states its clock runs at ({@link clockRateOf}); default 1.
   *   A rate other than the one stated so far is followed from now on, the estimate starting
   *   afresh from this reply, until the replies disprove it
   * @returns true when the estimate moved
   */
  observe(date: string | undefined, sentMs: number, receivedMs: number, rate = 1): boolean {
    if (date === undefined) return false;
    const stamped = Date.parse(date);
    if (!Number.isFinite(stamped)) return false;
    if (rate !== this.#stated) this.#follow(rate);
    this.#takeIn(stamped, sentMs, receivedMs);
    const proof = this.#followed;
    if (this.#offsetMs >= proof.lowest && this.#offsetMs < proof.highest) return false;
    const before = this.offsetMs;
    this.#offsetMs = Math.floor((proof.lowest + proof.highest) / 2);
    const fields = {
      offsetMs: this.offsetMs,
      beforeMs: before,
      ...(proof.rate === 1 ? {} : { rate: proof.rate }),
    };
    const message = "the venue's clock differs from this machine's; nonces follow the venue's";
    if (Math.abs(fields.offsetMs - before) >= NOTABLE_MOVE_MS) this.logger.warn(fields, message);
    else this.logger.debug(fields, message);
    return true;
  }

  /**
   * Takes one reply into what the replies prove, and follows the other rate when they bear it out.
   * @param stamped - the reply's `Date`, epoch ms
   * @param sentMs - local time its request was sent, epoch ms
   * @param receivedMs - local time it arrived, epoch ms
   */
  #takeIn(stamped: number, sentMs: number, receivedMs: number): void {
    const followed = takeReply(this.#followed, stamped, sentMs, receivedMs);
    if (followed === 'contradicts') this.#contradictedAt = receivedMs;
    const other = this.#other;
    if (other === undefined) return;
    const atOther = takeReply(other, stamped, sentMs, receivedMs);
    const [atStated, atRealTime] = other.rate === 1 ? [followed, atOther] : [atOther, followed];
    if (atStated === 'agrees' && atRealTime === 'contradicts') this.#statedBorneOut = true;
    if (atOther === 'agrees' && this.#bearsOut(other, followed, sentMs)) this.#switchTo(other);
  }

  /**
   * Whether the replies, the latest of which `other` agreed with, bear out its rate over the one
   * followed: the latest contradicts the one followed. Real time over a stated rate the replies
   * bore out before also needs them to have agreed at real time for at least
   * {@link REAL_TIME_PROOF_MS}, a stated rate contradicted within that span: a shorter agreement
   * is what a `Date` header standing still shows too.
   * @param other - what the replies prove at the other rate
   * @param followed - how the latest reply fared at the rate followed
   * @param sentMs - local time the latest reply's request was sent, epoch ms
   */
  #bearsOut(other: Proof, followed: 'first' | 'agrees' | 'contradicts', sentMs: number): boolean {
    if (other.rate !== 1 || !this.#statedBorneOut) return followed === 'contradicts';
    return this.#contradictedAt >= other.since && sentMs - other.since >= REAL_TIME_PROOF_MS;
  }

  /**
   * Follows a newly stated rate from the estimate's time now, forgetting what replies proved at
   * the old one; what they proved at real time is kept to check it against.
   */
  #follow(rate: number): void {
    this.logger.warn(
      { rate, beforeRate: this.#stated },
      "the venue states its clock runs at another rate than real time (a paper venue's replay speed): Keel's estimate of it follows that rate",
    );
    const realTime = [this.#followed, this.#other].find((proof) => proof?.rate === 1) ?? freshProof(1);
    this.#stated = rate;
    this.#statedBorneOut = false;
    this.#rebase(rate === 1 ? realTime : freshProof(rate));
    this.#other = rate === 1 ? undefined : realTime;
  }

  /**
   * Follows the other rate, which the replies bore out where they contradicted the one followed.
   * @param other - what the replies prove at it
   */
  #switchTo(other: Proof): void {
    const followed = this.#followed;
    this.logger.warn(
      { rate: other.rate, beforeRate: followed.rate, statedRate: this.#stated },
      other.rate === 1
        ? "the venue's Date headers move at real time, not at the rate it states (x-keel-clock-rate): Keel's estimate of its clock follows real time"
        : "the venue's Date headers move at the rate it states (x-keel-clock-rate) again: Keel's estimate of its clock follows that rate",
    );
    this.#rebase(other);
    this.#other = followed;
  }

  /** Follows `proof`'s rate from the estimate's time now, narrowed by what it proves. */
  #rebase(proof: Proof): void {
    const now = this.now();
    this.#followed = proof;
    this.#offsetMs = now - this.timer.now() * proof.rate;
    this.#contradictedAt = Number.NEGATIVE_INFINITY;
  }
}
