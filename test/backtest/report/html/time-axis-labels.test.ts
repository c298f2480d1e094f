// The time axes' tick labels: the page's own function (TICK_LABEL_SCRIPT, the text the report
// inlines) evaluated here.
import { describe, expect, it } from 'vitest';
import {
  TICK_LABEL_FUNCTION,
  TICK_LABEL_MAX_LENGTH,
  TICK_LABEL_SCRIPT,
} from '../../../../backtest/report/html/time-axis-labels.ts';

const tickLabel = new Function(`${TICK_LABEL_SCRIPT}\nreturn ${TICK_LABEL_FUNCTION};`)() as (
  time: number,
  type: number,
  withYear: boolean,
) => string | null;

/** lightweight-charts' TickMarkType. */
const YEAR = 0;
const MONTH = 1;
const DAY_OF_MONTH = 2;
const TIME = 3;

const at = (iso: string): number => Date.parse(iso) / 1000;

describe('time axis tick labels', () => {
  it('name the month of a day, and the year when the run spans more than one', () => {
    expect(tickLabel(at('2024-02-14T00:00Z'), DAY_OF_MONTH, false)).toBe('14 Feb');
    expect(tickLabel(at('2024-02-14T00:00Z'), DAY_OF_MONTH, true)).toBe('14 Feb 2024');
    expect(tickLabel(at('2024-03-01T00:00Z'), MONTH, false)).toBe('Mar');
    expect(tickLabel(at('2024-03-01T00:00Z'), MONTH, true)).toBe('Mar 2024');
    expect(tickLabel(at('2025-01-01T00:00Z'), YEAR, false)).toBe('Jan 2025');
  });

  it('read in UTC, as the report states every time', () => {
    expect(tickLabel(at('2024-02-29T23:59Z'), DAY_OF_MONTH, false)).toBe('29 Feb');
  });

  it("leave a time of day to the library's own label", () => {
    expect(tickLabel(at('2024-02-14T09:30Z'), TIME, false)).toBeNull();
  });

  it('never write more characters than the library spaces the ticks for', () => {
    expect(tickLabel(at('2024-12-31T00:00Z'), DAY_OF_MONTH, true)?.length).toBeLessThanOrEqual(
      TICK_LABEL_MAX_LENGTH,
    );
  });
});
