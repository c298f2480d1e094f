/**
 * The paper venue's virtual time: the last released market event's time, or a delayed command's
 * arrival at the matching engine when that is later. It only moves forward; it reads 0 before the
 * first event.
 */
export class VenueClock {
  private time = 0;

  /** @returns the venue's time, epoch ms */
  now(): number {
    return this.time;
  }

  /**
   * Moves the venue's time to `ts`, unless it is already later.
   * @param ts - an event's time or a command's arrival, epoch ms
   */
  reach(ts: number): void {
    this.time = Math.max(this.time, ts);
  }
}
