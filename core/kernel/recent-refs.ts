/** The most base-36 digits of a counter a double holds exactly (36^10 < 2^53). */
const MAX_COUNTER_DIGITS = 10;

/** A slot's counter when its reference ends in none. */
const NO_COUNTER = -1;

/** A slot's counter once forgotten (or never filled): no reference has it. */
const EMPTY = -2;

/**
 * The references of the last `capacity` commands sent, around a ring: slot `seq % capacity` holds
 * the command numbered `seq` (1 for the first) until `capacity` more are sent. Its owner keeps
 * what it notes of each command in its own arrays, at the command's slot. Noting a command costs
 * an array write, where a map by reference cost an insert and a delete on every modify of a
 * quote; a reference is looked up only when the venue refuses its command, newest first, so a
 * refusal arriving soon after its command finds it within a few slots.
 *
 * A reference is kept as its head and the base-36 counter it ends in (`mm-1a2b`: `mm-` and 1a2b
 * as a number, see {@link counterStart}), the head shared with the reference before when the
 * same: a ring holding each reference string kept every command's string alive through thousands
 * of young-generation collections, each copying it again, until it was promoted for good.
 */
export class RecentRefs {
  /** Per slot, the reference less its counter (the whole reference when it ends in none). */
  private readonly heads: (string | undefined)[];
  /** Per slot, the counter its reference ends in: {@link NO_COUNTER} when none, {@link EMPTY} when no reference. */
  private readonly counters: Float64Array;
  private sent = 0;
  /** The head of the last reference with a counter pushed, shared by the next ones of the same head. */
  private lastHead = '';

  /** @param capacity - how many commands are remembered */
  constructor(readonly capacity: number) {
    this.heads = new Array(Math.max(0, capacity)).fill(undefined);
    this.counters = new Float64Array(Math.max(0, capacity)).fill(EMPTY);
  }

  /**
   * Notes a command's reference as it is sent.
   * @param ref - the reference
   * @returns the slot it takes, for the owner's notes of it; -1 when nothing is remembered (capacity 0)
   */
  push(ref: string): number {
    this.sent++;
    if (this.capacity <= 0) return -1;
    const slot = this.sent % this.capacity;
    const start = counterStart(ref);
    if (start === -1) {
      this.heads[slot] = ref;
      this.counters[slot] = NO_COUNTER;
      return slot;
    }
    const last = this.lastHead;
    const head = last.length === start && ref.startsWith(last) ? last : ref.slice(0, start);
    this.lastHead = head;
    this.heads[slot] = head;
    this.counters[slot] = counterAt(ref, start);
    return slot;
  }

  /**
   * @param ref - a command's reference
   * @returns the slot of its latest command while remembered, searched newest first; -1 when not
   */
  slotOf(ref: string): number {
    const capacity = this.capacity;
    if (capacity <= 0) return -1;
    const start = counterStart(ref);
    const counter = start === -1 ? NO_COUNTER : counterAt(ref, start);
    const count = Math.min(capacity, this.sent);
    for (let i = 0, seq = this.sent; i < count; i++, seq--) {
      const slot = seq % capacity;
      if (this.counters[slot] !== counter) continue;
      const head = this.heads[slot] as string;
      if (start === -1 ? head === ref : head.length === start && ref.startsWith(head)) return slot;
    }
    return -1;
  }

  /**
   * Forgets the command at a slot (one answered for good): its reference is found no more.
   * @param slot - a slot {@link RecentRefs.slotOf} gave
   */
  forget(slot: number): void {
    this.heads[slot] = undefined;
    this.counters[slot] = EMPTY;
  }
}

/** Whether a character code is a base-36 digit as `toString(36)` writes them: 0-9, a-z. */
function isBase36Digit(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 97 && code <= 122);
}

/**
 * Where the counter a reference ends in starts: the longest run of base-36 digits at its end, when
 * it is {@link MAX_COUNTER_DIGITS} long at most and has no leading zero (`0` alone is a counter),
 * so that head and counter give back the one reference (head + counter.toString(36)).
 * @param ref - a reference
 * @returns the index of the counter's first digit, -1 when the reference ends in no such counter
 */
function counterStart(ref: string): number {
  let start = ref.length;
  while (start > 0 && isBase36Digit(ref.charCodeAt(start - 1))) start--;
  const digits = ref.length - start;
  if (digits === 0 || digits > MAX_COUNTER_DIGITS) return -1;
  if (digits > 1 && ref.charCodeAt(start) === 48) return -1;
  return start;
}

/** The base-36 counter from `start` to the end of a reference (exact: at most {@link MAX_COUNTER_DIGITS} digits). */
function counterAt(ref: string, start: number): number {
  let value = 0;
  for (let i = start; i < ref.length; i++) {
    const code = ref.charCodeAt(i);
    value = value * 36 + (code <= 57 ? code - 48 : code - 87);
  }
  return value;
}
