/** Slots a transit line starts with: a power of two, doubled as more events are on their way. */
const INITIAL_RING = 1024;

/**
 * A first-in first-out line of events whose delivery times never go backwards, around a ring of
 * two parallel arrays (the times and the events) that doubles when full: the market line carries
 * every event of a run, and a record per event, or arrays shifted or spliced as they empty, cost
 * an allocation per event.
 */
export class TransitLine<E> {
  private ats = new Float64Array(INITIAL_RING);
  private events: (E | undefined)[] = new Array<E | undefined>(INITIAL_RING).fill(undefined);
  /** Slots - 1 (the slots are a power of two). */
  private mask = INITIAL_RING - 1;
  private head = 0;
  private size = 0;
  /**
   * The time of the event at the head (+Infinity when none), kept as each push and shift moves it:
   * the runner asks several times per event.
   */
  private next = Number.POSITIVE_INFINITY;

  /** The time of the event at the head, +Infinity when the line is empty. */
  get nextAt(): number {
    return this.next;
  }

  /** Whether no event is on its way. */
  get empty(): boolean {
    return this.size === 0;
  }

  /** Events the line can hold before its storage doubles. */
  get slots(): number {
    return this.mask + 1;
  }

  /**
   * Puts an event at the end of the line.
   * @param at - its delivery time: not before the time of the event ahead of it
   * @param event - the event
   */
  push(at: number, event: E): void {
    if (this.size > this.mask) this.grow();
    if (this.size === 0) this.next = at;
    const slot = (this.head + this.size) & this.mask;
    this.ats[slot] = at;
    this.events[slot] = event;
    this.size++;
  }

  /**
   * Takes the event at the head; only when the line is not {@link TransitLine.empty}.
   * @returns the event
   */
  shift(): E {
    const head = this.head;
    const event = this.events[head] as E;
    // Emptied at once: an event the ring still held would outlive a young-generation collection,
    // and V8 would then allocate such events in the old generation.
    this.events[head] = undefined;
    this.head = (head + 1) & this.mask;
    this.size--;
    this.next = this.size > 0 ? (this.ats[this.head] as number) : Number.POSITIVE_INFINITY;
    return event;
  }

  /** Doubles the ring, its events moved to the front in order. */
  private grow(): void {
    const slots = this.mask + 1;
    const ats = new Float64Array(slots * 2);
    const events = new Array<E | undefined>(slots * 2).fill(undefined);
    for (let i = 0; i < this.size; i++) {
      const from = (this.head + i) & this.mask;
      ats[i] = this.ats[from] as number;
      events[i] = this.events[from];
    }
    this.ats = ats;
    this.events = events;
    this.mask = slots * 2 - 1;
    this.head = 0;
  }
}
