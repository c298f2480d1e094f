import { describe, expect, it } from 'vitest';
import { mergedKillSwitchState } from '../../../config/compose/kill-switch-merge.ts';
import { D } from '../../../core/model/index.ts';

const marks = (day: number, startOfDay: number, highWater: number) => ({
  day,
  startOfDay: D(startOfDay),
  highWater: D(highWater),
});
const HALTED = { state: 'HALTED' as const, reason: 'daily loss', since: 1 };
const REDUCING = { state: 'REDUCING' as const, reason: 'drawdown', since: 2 };

describe("merging a run's kill-switch state with its account file's", () => {
  it("takes the file's start of the same day and the higher high-water mark", () => {
    const merged = mergedKillSwitchState({ marks: marks(5, 990, 1010) }, { marks: marks(5, 1000, 1000) });
    expect(merged).toEqual({ marks: marks(5, 1000, 1010) });
  });

  it('takes the start of the later day, whoever holds it', () => {
    expect(mergedKillSwitchState({ marks: marks(6, 990, 990) }, { marks: marks(5, 1000, 1000) })).toEqual({
      marks: marks(6, 990, 1000),
    });
    expect(mergedKillSwitchState({ marks: marks(5, 990, 990) }, { marks: marks(6, 1000, 1000) })).toEqual({
      marks: marks(6, 1000, 1000),
    });
  });

  it('takes the stricter trip, and keeps what only one side has', () => {
    expect(mergedKillSwitchState({}, { trip: REDUCING })).toEqual({ trip: REDUCING });
    expect(mergedKillSwitchState({ trip: REDUCING }, { trip: HALTED })).toEqual({ trip: HALTED });
    expect(mergedKillSwitchState({ trip: HALTED }, { trip: REDUCING })).toEqual({ trip: HALTED });
    expect(mergedKillSwitchState({ trip: HALTED, marks: marks(5, 1, 1) }, {})).toEqual({
      trip: HALTED,
      marks: marks(5, 1, 1),
    });
  });
});
