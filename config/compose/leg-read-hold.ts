import type { Logger } from 'pino';
import { type Observable, Subject } from 'rxjs';
import { EmptiedSignal } from './emptied-signal.ts';

/**
 * How long, wall ms, the events after a fill with tp / sl wait at most for the read of its legs
 * (Keel's choice: the REST reads of a paper venue on the same machine take milliseconds; ten
 * seconds is far past a slow answer and short enough not to look stalled).
 */
export const LEG_READ_HOLD_MS = 10_000;

/** One held event and where it goes. */
interface HeldEvent {
  readonly deliver: () => void;
}

/**
 * Holds a lockstep session's events while the legs attached to an order that just filled are
 * read from the venue, so they reach the strategies before the next event, as in a backtest
 * (whose venue lists the legs with the fill). The lockstep acks hold the venue's clock; this holds
 * delivery: a bar the venue sent right after the fill (both from one release) would otherwise
 * reach `onBar` before the read ended, with `ctx.openAlgoOrders()` still empty. Every stream it
 * holds shares one queue, so the events keep the order they arrived in. An event is held while a
 * read is pending (or events before it are held), and released once the read ends or fails; a
 * released event may start another read (a fill of another order with tp / sl), which holds the
 * rest again. A read still pending after `boundMs` releases what is held with a warning, and
 * holds nothing more until it ends: the session goes on without the legs, which reach the kernel
 * when the read ends, so a venue that never answers cannot stall it.
 */
export class LegReadHold {
  private readonly queue: HeldEvent[] = [];
  /** The read whose bound passed: it no longer holds events. */
  private overdue: Promise<void> | undefined;
  /** The read the queue waits for. */
  private waitingFor: Promise<void> | undefined;
  /** Settles the promise {@link LegReadHold.idle} gave, once the queue is empty. */
  private readonly emptied = new EmptiedSignal();

  /**
   * @param pending - the reads of legs under way, undefined when none (`AttachedLegLookups.pending`)
   * @param logger - told when a read outlasts the bound
   * @param boundMs - how long events wait at most for one read, wall ms
   */
  constructor(
    private readonly pending: () => Promise<void> | undefined,
    private readonly logger: Logger,
    private readonly boundMs = LEG_READ_HOLD_MS,
  ) {}

  /**
   * A stream's events, held with the others' while legs are read.
   * @param source - the stream (market data or User Data)
   * @returns the same events, each once nothing is read or held before it
   */
  of<T>(source: Observable<T>): Observable<T> {
    const out = new Subject<T>();
    source.subscribe({
      next: (event) => this.take(() => out.next(event)),
      error: (error: unknown) => this.take(() => out.error(error)),
      complete: () => this.take(() => out.complete()),
    });
    return out;
  }

  /**
   * What a lockstep ack waits for besides the reads: the events held, delivered. An ack sent
   * before them would let the venue release the next event before the orders a strategy sends on
   * them.
   * @returns a promise of the held events' delivery, or undefined when none is held
   */
  idle(): Promise<void> | undefined {
    return this.queue.length === 0 ? undefined : this.emptied.next();
  }

  private take(deliver: () => void): void {
    if (this.queue.length === 0 && this.holding() === undefined) {
      deliver();
      return;
    }
    this.queue.push({ deliver });
    this.drain();
  }

  /** @returns the read events wait for now, undefined when none does */
  private holding(): Promise<void> | undefined {
    const read = this.pending();
    return read === this.overdue ? undefined : read;
  }

  /** Delivers the held events in order until a read holds the rest. */
  private drain(): void {
    for (;;) {
      const read = this.holding();
      if (read !== undefined) {
        this.wait(read);
        return;
      }
      const next = this.queue.shift();
      if (next === undefined) {
        this.emptied.emptied();
        return;
      }
      next.deliver();
    }
  }

  private wait(read: Promise<void>): void {
    if (this.waitingFor === read) return;
    this.waitingFor = read;
    const timer = setTimeout(() => {
      if (this.waitingFor !== read) return;
      this.logger.warn(
        { heldEvents: this.queue.length, boundMs: this.boundMs },
        'the take-profit / stop-loss legs of an order were not read in time: the events after its fill go on without them, which are listed once the read ends',
      );
      this.overdue = read;
      this.resume();
    }, this.boundMs);
    const ended = (): void => {
      clearTimeout(timer);
      if (this.waitingFor === read) this.resume();
    };
    read.then(ended, ended);
  }

  private resume(): void {
    this.waitingFor = undefined;
    this.drain();
  }
}
