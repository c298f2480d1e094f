import type { TimeInterval } from '../equity-sample.ts';

/** Flat-to-flat stretches kept as they are; older ones are folded (see `fold`). */
const KEPT_STRETCHES = 64;

/**
 * When some lot was open, as flat-to-flat stretches: from a fill opening a lot while none was
 * open to the fill closing the last one. Fills come in time order. Old stretches are folded into
 * one, so a long run's memory stays bounded however often it goes flat.
 */
export class ExposureStretches {
  private openLots = 0;
  private exposedSince: number | undefined;
  private readonly exposed: TimeInterval[] = [];
  /** The oldest stretches folded into one: where the first began and their total length. */
  private folded: { readonly from: number; readonly ms: number } | undefined;

  /**
   * A lot opened.
   * @param ts - the opening fill's time
   */
  lotOpened(ts: number): void {
    if (this.openLots++ === 0) this.exposedSince = ts;
  }

  /**
   * A lot closed.
   * @param ts - the closing fill's time
   */
  lotClosed(ts: number): void {
    if (--this.openLots === 0 && this.exposedSince !== undefined) {
      this.exposed.push({ from: this.exposedSince, to: ts });
      this.exposedSince = undefined;
      if (this.exposed.length > 2 * KEPT_STRETCHES) this.fold();
    }
  }

  /**
   * The stretches, the last one up to `end` when lots are still open. Their union is that of the
   * round trips' [entryTs, exitTs] and the open trades' [entryTs, end] (a lot's round trips all
   * start at its entry and the last one ends when it closes), with one interval per flat-to-flat
   * stretch instead of one per trade.
   * @param end - end of the run, for lots still open
   * @returns the intervals, in time order
   */
  intervals(end: number): TimeInterval[] {
    const folded =
      this.folded === undefined ? [] : [{ from: this.folded.from, to: this.folded.from + this.folded.ms }];
    return this.exposedSince === undefined
      ? [...folded, ...this.exposed]
      : [...folded, ...this.exposed, { from: this.exposedSince, to: end }];
  }

  /**
   * Folds all but the latest {@link KEPT_STRETCHES} stretches into one interval as long as
   * their total, starting where the first began: it lies inside their span, before every kept
   * stretch, so the union's length, clipped to the run, is unchanged as long as the folded ones
   * lie inside the run, which they do: they began at fills and ended before the latest stretches.
   */
  private fold(): void {
    const old = this.exposed.splice(0, this.exposed.length - KEPT_STRETCHES);
    let ms = this.folded?.ms ?? 0;
    for (const stretch of old) ms += stretch.to - stretch.from;
    this.folded = { from: this.folded?.from ?? (old[0] as TimeInterval).from, ms };
  }
}
