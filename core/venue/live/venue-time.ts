/**
 * Keel's estimate of the venue's time for its venue times (execution catch-ups, the caps on
 * venue times stamped ahead, status stamps): the `Date` header's clock, never behind the last
 * market-data time the venue pushed. A real venue stamps both on one clock, so this is its `Date`
 * clock give or take the header's one-second grain; a paper venue replaying faster than real time
 * (`keel venue --speed 5`, a paper session at a speed above 1 or in lockstep) stamps its data and
 * fills on its replay clock, ahead of its `Date` header by more every second, and a catch-up
 * started from the header's time would list the venue's whole history. Market data comes many
 * times a second, so one fill stamped ahead still counts only as the present (see
 * LocalTradingView.noteExecution). The last market time is taken, not the newest ever, so one
 * tick stamped far ahead is undone by the next.
 */
export class VenueTime {
  #lastPushed: number | undefined;

  /** @param dateClock - the venue's clock as its `Date` header tells it (ServerClock.now), epoch ms */
  constructor(private readonly dateClock: () => number) {}

  /**
   * Takes in the venue time of one market-data event the venue stamped as it sent it.
   * @param ts - its venue time, epoch ms
   */
  notePushed(ts: number): void {
    this.#lastPushed = ts;
  }

  /** @returns the venue's time as estimated, epoch ms */
  now(): number {
    const byDate = this.dateClock();
    return this.#lastPushed === undefined ? byDate : Math.max(byDate, this.#lastPushed);
  }
}
