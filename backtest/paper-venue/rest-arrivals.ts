import type { TimerPort } from '../../core/venue/index.ts';
import type { LockstepAckExtras } from './market-feed.ts';

/** One client run's numbered REST requests: all up to `through` arrived, and those beyond it. */
interface EpochArrivals {
  through: number;
  readonly ahead: Set<number>;
}

/**
 * Holds a lockstep ack until the REST requests it counts have arrived (Keel's paper-venue
 * extension, `REST_SEQ_HEADER`): an algo order or a close sent over REST before the ack travels
 * on another connection and may arrive after it, when the venue would already have released the
 * next market event past it, unlike a backtest, where the command meets the market it was sent
 * on. A request counts as arrived once the venue has taken it in (journaled, or refused). An ack
 * held longer than `stallMs` of wall time goes through anyway (a request lost on the way cannot
 * stall the replay for good).
 */
export class RestArrivals {
  private readonly epochs = new Map<string, EpochArrivals>();
  private held: { readonly seq: number; readonly extras: LockstepAckExtras } | undefined;
  private cancelStall: (() => void) | undefined;

  /**
   * @param apply - applies an ack to the feed
   * @param timer - the wall clock, for the stall bound
   * @param stallMs - the longest an ack is held
   */
  constructor(
    private readonly apply: (seq: number, extras: LockstepAckExtras) => void,
    private readonly timer: TimerPort,
    private readonly stallMs: number,
  ) {}

  /**
   * A request carrying the header was taken in.
   * @param header - the header's value, `<epoch>:<n>`; anything else is ignored
   */
  arrived(header: string | readonly string[] | undefined): void {
    const text = typeof header === 'string' ? header : undefined;
    const at = text?.lastIndexOf(':') ?? -1;
    if (text === undefined || at <= 0) return;
    const n = Number(text.slice(at + 1));
    if (!Number.isSafeInteger(n) || n < 1) return;
    const epoch = text.slice(0, at);
    const arrivals = this.epochs.get(epoch) ?? { through: 0, ahead: new Set<number>() };
    this.epochs.set(epoch, arrivals);
    if (n > arrivals.through) arrivals.ahead.add(n);
    while (arrivals.ahead.delete(arrivals.through + 1)) arrivals.through++;
    const held = this.held;
    if (held !== undefined && this.covers(held.extras)) this.release();
  }

  /**
   * A lockstep ack: applied now when every REST request it counts has arrived, else held (a later
   * ack replaces it: acks are cumulative).
   * @param seq - the highest event the client handled
   * @param extras - its extras, with its REST count
   */
  ack(seq: number, extras: LockstepAckExtras): void {
    if (this.covers(extras)) {
      if (this.held !== undefined) this.drop();
      this.apply(seq, extras);
      return;
    }
    this.held = { seq, extras };
    this.cancelStall ??= this.timer.setTimer(() => {
      this.cancelStall = undefined;
      this.release();
    }, this.stallMs);
  }

  private covers(extras: LockstepAckExtras): boolean {
    if (extras.restEpoch === undefined || extras.restSent === undefined || extras.restSent === 0) return true;
    return (this.epochs.get(extras.restEpoch)?.through ?? 0) >= extras.restSent;
  }

  private release(): void {
    const held = this.held;
    this.drop();
    if (held !== undefined) this.apply(held.seq, held.extras);
  }

  private drop(): void {
    this.held = undefined;
    this.cancelStall?.();
    this.cancelStall = undefined;
  }
}
