/**
 * The references of the last `capacity` commands sent, around a ring: slot `seq % capacity` holds
 * the command numbered `seq` (1 for the first) until `capacity` more are sent. Its owner keeps
 * what it notes of each command in its own arrays, at the command's slot. Noting a command costs
 * an array write, where a map by reference cost an insert and a delete on every modify of a
 * quote; a reference is looked up only when the venue refuses its command, newest first, so a
 * refusal arriving soon after its command finds it within a few slots.
 */
export class RecentRefs {
  private readonly refs: (string | undefined)[];
  private sent = 0;

  /** @param capacity - how many commands are remembered */
  constructor(readonly capacity: number) {
    this.refs = new Array(Math.max(0, capacity)).fill(undefined);
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
    this.refs[slot] = ref;
    return slot;
  }

  /**
   * @param ref - a command's reference
   * @returns the slot of its latest command while remembered, searched newest first; -1 when not
   */
  slotOf(ref: string): number {
    const capacity = this.capacity;
    if (capacity <= 0) return -1;
    const count = Math.min(capacity, this.sent);
    for (let i = 0, seq = this.sent; i < count; i++, seq--) {
      const slot = seq % capacity;
      if (this.refs[slot] === ref) return slot;
    }
    return -1;
  }

  /**
   * Forgets the command at a slot (one answered for good): its reference is found no more.
   * @param slot - a slot {@link RecentRefs.slotOf} gave
   */
  forget(slot: number): void {
    this.refs[slot] = undefined;
  }
}
