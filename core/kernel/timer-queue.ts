/** A timer as the kernel stores it: who set it, when it fires next, and whether it repeats. */
export interface ScheduledTimer {
  readonly id: number;
  readonly owner: number;
  readonly tag: string;
  /** Next firing time, epoch ms. */
  at: number;
  /** Repeat period in ms; 0 for a one-shot timer. */
  readonly every: number;
  /**
   * Earlier periods of a repeating timer folded into its current firing because the kernel woke
   * after more than one period had passed (wall time only); 0 otherwise.
   */
  missed: number;
  /** Insertion sequence: breaks ties between timers due at the same time (first set fires first). */
  seq: number;
  cancelled: boolean;
}

/**
 * Strategy timers ordered by firing time, then by the order they were set: a binary min-heap,
 * so the kernel's per-event check is one comparison against {@link TimerQueue.nextAt}.
 * Cancelled timers are dropped lazily when they reach the top.
 */
export class TimerQueue {
  private readonly heap: ScheduledTimer[] = [];
  private readonly byId = new Map<number, ScheduledTimer>();
  private nextSeq = 0;

  /** Firing time of the earliest live timer; +Infinity when none. */
  nextAt = Number.POSITIVE_INFINITY;

  /**
   * Adds a timer (or re-adds a repeating one after it fired).
   * @param timer - the timer; its `seq` is assigned here
   */
  push(timer: ScheduledTimer): void {
    timer.seq = this.nextSeq++;
    this.byId.set(timer.id, timer);
    this.heap.push(timer);
    this.up(this.heap.length - 1);
    this.refreshNext();
  }

  /**
   * Cancels a timer by id; only its owner may.
   * @param id - the timer id
   * @param owner - who asks
   * @returns true when a live timer of this owner was cancelled
   */
  cancel(id: number, owner: number): boolean {
    const timer = this.byId.get(id);
    if (timer === undefined || timer.owner !== owner) return false;
    timer.cancelled = true;
    this.byId.delete(id);
    this.refreshNext();
    return true;
  }

  /**
   * The earliest timer due at or before `upTo`, left in the queue.
   * @param upTo - epoch ms
   * @returns the timer, or undefined when none is due
   */
  peekDue(upTo: number): ScheduledTimer | undefined {
    this.dropCancelled();
    const top = this.heap[0];
    return top === undefined || top.at > upTo ? undefined : top;
  }

  /**
   * Removes and returns the earliest timer due at or before `upTo`.
   * @param upTo - epoch ms
   * @returns the timer, or undefined when none is due
   */
  popDue(upTo: number): ScheduledTimer | undefined {
    this.dropCancelled();
    const top = this.heap[0];
    if (top === undefined || top.at > upTo) return undefined;
    this.removeTop();
    this.byId.delete(top.id);
    this.refreshNext();
    return top;
  }

  /** Number of live timers. */
  get size(): number {
    return this.byId.size;
  }

  private refreshNext(): void {
    this.dropCancelled();
    this.nextAt = this.heap[0]?.at ?? Number.POSITIVE_INFINITY;
  }

  private dropCancelled(): void {
    while (this.heap[0]?.cancelled === true) this.removeTop();
  }

  private removeTop(): void {
    const last = this.heap.pop();
    if (last !== undefined && this.heap.length > 0) {
      this.heap[0] = last;
      this.down(0);
    }
  }

  private before(a: ScheduledTimer, b: ScheduledTimer): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  private up(index: number): void {
    const heap = this.heap;
    let i = index;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const a = heap[i] as ScheduledTimer;
      const p = heap[parent] as ScheduledTimer;
      if (!this.before(a, p)) break;
      heap[i] = p;
      heap[parent] = a;
      i = parent;
    }
  }

  private down(index: number): void {
    const heap = this.heap;
    const n = heap.length;
    let i = index;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let best = i;
      if (left < n && this.before(heap[left] as ScheduledTimer, heap[best] as ScheduledTimer)) best = left;
      if (right < n && this.before(heap[right] as ScheduledTimer, heap[best] as ScheduledTimer)) best = right;
      if (best === i) return;
      const tmp = heap[i] as ScheduledTimer;
      heap[i] = heap[best] as ScheduledTimer;
      heap[best] = tmp;
      i = best;
    }
  }
}
