import { BAR_INTERVAL_MS } from '../../core/model/index.ts';
import { earlierOccurrence, laterOccurrence } from './clock-changes.ts';
import type { RawBar } from './ohlcv-bar.ts';

/** Keel's bar intervals, ms: the only steps a grid around a bar is taken to have. */
const GRID_STEPS: ReadonlySet<number> = new Set(Object.values(BAR_INTERVAL_MS));

/** The two bars before one (as passed on) and the two after it (as held), oldest first; absent where the file has none. */
export interface BarsAround {
  readonly beforePrev?: RawBar;
  readonly prev?: RawBar;
  readonly next?: RawBar;
  readonly afterNext?: RawBar;
}

/**
 * Places a bar whose wall clock, written without an offset, happens twice (the repeated hour when
 * daylight saving ends) and which the file holds once: bars coarser than the clock change (4h or
 * daily bars across an hour's change, hourly across Lord Howe Island's half hour) hold one of the
 * two occurrences, and luxon reads the zone's default one (the later in Europe and the Americas,
 * the earlier in Sydney) whichever it was. The bar moves to its other occurrence when only that one
 * is a whole number of grid steps from the bars either side, the step being the gap between the
 * two bars before it or the two after it that is one of Keel's intervals (the smaller if both).
 * Bars finer than the change, or a repeated hour written twice, are left where they are: both
 * occurrences then lie on the grid, or the other one is not between the bars either side.
 * @param bar - the bar, read at the occurrence luxon chose
 * @param around - the bars before and after it
 * @param zone - the IANA zone times without an offset were read in
 * @returns the bar, at its other occurrence when only that one lies on the grid around it
 */
export function placeOnNeighboursGrid(bar: RawBar, around: BarsAround, zone: string): RawBar {
  const step = gridStep(around);
  if (step === undefined) return bar;
  const { prev, next } = around;
  const onGrid = (ts: number): boolean =>
    (prev === undefined || (ts - prev.ts) % step === 0) &&
    (next === undefined || (next.ts - ts) % step === 0);
  // Checked first as it is cheap: the zone's offsets are looked up only for a bar off the grid.
  if (onGrid(bar.ts)) return bar;
  const other = earlierOccurrence(bar.ts, zone) ?? laterOccurrence(bar.ts, zone);
  if (other === undefined || !onGrid(other)) return bar;
  return (prev === undefined || other > prev.ts) && (next === undefined || other < next.ts)
    ? { ...bar, ts: other }
    : bar;
}

/** The grid step the bars around one show: the smaller gap of the two pairs beside it that is a Keel interval. */
function gridStep({ beforePrev, prev, next, afterNext }: BarsAround): number | undefined {
  const steps = [
    beforePrev !== undefined && prev !== undefined ? prev.ts - beforePrev.ts : undefined,
    next !== undefined && afterNext !== undefined ? afterNext.ts - next.ts : undefined,
  ].filter((gap): gap is number => gap !== undefined && GRID_STEPS.has(gap));
  return steps.length === 0 ? undefined : Math.min(...steps);
}
