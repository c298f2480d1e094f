import type { KillSwitchMarks, KillSwitchState } from '../../core/risk/index.ts';

/**
 * One account's kill-switch state from what this run holds and what its state file holds (another
 * run on the account may have written it since): the stricter trip (HALTED over REDUCING; on a tie
 * this run's), the start of the later UTC day (on the same day the file's, which the account's
 * first run that day wrote), the higher high-water mark. Runs that merge at each save converge on
 * one state, so none writes over another's trip or hands itself its own daily loss budget.
 * @param ours - this run's state
 * @param theirs - the state file's
 * @returns the merged state
 */
export function mergedKillSwitchState(ours: KillSwitchState, theirs: KillSwitchState): KillSwitchState {
  const marks = mergedMarks(ours.marks, theirs.marks);
  const trip =
    ours.trip === undefined || (theirs.trip?.state === 'HALTED' && ours.trip.state !== 'HALTED')
      ? theirs.trip
      : ours.trip;
  return { ...(marks === undefined ? {} : { marks }), ...(trip === undefined ? {} : { trip }) };
}

/** {@link mergedKillSwitchState}'s marks. */
function mergedMarks(
  ours: KillSwitchMarks | undefined,
  theirs: KillSwitchMarks | undefined,
): KillSwitchMarks | undefined {
  if (ours === undefined) return theirs;
  if (theirs === undefined) return ours;
  const day = ours.day > theirs.day ? ours : theirs;
  const highWater = ours.highWater.greaterThan(theirs.highWater) ? ours.highWater : theirs.highWater;
  return { day: day.day, startOfDay: day.startOfDay, highWater };
}
