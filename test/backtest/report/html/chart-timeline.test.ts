// The charts' shared timeline: the page's own functions (CHART_TIMELINE_SCRIPT, the text the
// report inlines) evaluated here.
import { describe, expect, it } from 'vitest';
import {
  CHART_TIMELINE_SCRIPT,
  ON_TIMELINE_FUNCTION,
  SHARED_TIMELINE_FUNCTION,
} from '../../../../backtest/report/html/chart-timeline.ts';

interface Item {
  readonly time: number;
  readonly value?: number;
}

const [sharedTimeline, onTimeline] = new Function(
  `${CHART_TIMELINE_SCRIPT}\nreturn [${SHARED_TIMELINE_FUNCTION}, ${ON_TIMELINE_FUNCTION}];`,
)() as [
  (lists: readonly (readonly Item[])[]) => number[],
  (timeline: readonly number[], items: readonly Item[]) => Item[],
];

describe('chart timeline', () => {
  it('holds every time any chart draws once, so each chart puts a time at the same index (and x)', () => {
    const price = [
      { time: 10, value: 1 },
      { time: 30, value: 2 },
      { time: 35, value: 3 },
    ];
    const equity = [
      { time: 5, value: 9 },
      { time: 10, value: 9 },
      { time: 30, value: 8 },
    ];
    const timeline = sharedTimeline([price, equity, equity]);
    expect(timeline).toEqual([5, 10, 30, 35]);
    const drawn = [onTimeline(timeline, price), onTimeline(timeline, equity)];
    for (const items of drawn) expect(items.map((i) => i.time)).toEqual(timeline);
    expect(drawn[0]).toEqual([{ time: 5 }, ...price]);
    expect(drawn[1]).toEqual([...equity, { time: 35 }]);
  });
});
