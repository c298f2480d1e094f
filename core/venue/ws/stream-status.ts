import { type Observable, Subject } from 'rxjs';
import type { VenueStatus, VenueStream, VenueStreamState } from '../../model/index.ts';

/**
 * The connection state of one venue stream, reported once per change (a repeat is dropped), so
 * the kernel, strategies, logs and metrics hear each drop, return and reconciliation once. The
 * same state with a new reason is reported again: why it lasts changed (a private stream `up`
 * whose reconciliation keeps failing).
 */
export class StreamStatus {
  private readonly subject = new Subject<VenueStatus>();
  private state: VenueStreamState | undefined;
  private lastReason: string | undefined;

  /**
   * @param stream - which stream
   * @param now - the clock each change is stamped with, epoch ms (the live adapter's: the venue's time)
   */
  constructor(
    private readonly stream: VenueStream,
    private readonly now: () => number,
  ) {}

  /** Each change, as it happens. */
  get changes(): Observable<VenueStatus> {
    return this.subject.asObservable();
  }

  /** The last state reported; undefined before the first connection. */
  get current(): VenueStreamState | undefined {
    return this.state;
  }

  /** The reason reported with the current state, if any. */
  get reason(): string | undefined {
    return this.lastReason;
  }

  /**
   * Reports a state, unless it is the current one and no new reason comes with it.
   * @param state - the new state
   * @param reason - why, as a sentence part
   */
  set(state: VenueStreamState, reason?: string): void {
    if (this.state === state && (reason === undefined || reason === this.lastReason)) return;
    this.state = state;
    this.lastReason = reason;
    this.subject.next({
      stream: this.stream,
      state,
      ts: this.now(),
      ...(reason === undefined ? {} : { reason }),
    });
  }

  /** Completes the stream of changes (the client closed for good). */
  complete(): void {
    this.subject.complete();
  }
}
