import { describe, expect, it } from 'vitest';
import {
  formatNewYorkTime,
  isUsEquitySessionOpen,
  nextUsEquitySessionClose,
  nextUsEquitySessionOpen,
} from '../../../core/kernel/index.ts';

const at = (iso: string): number => Date.parse(iso);

describe('US equity session (America/New_York)', () => {
  it('is open 09:30-16:00 New York time on weekdays, across daylight saving', () => {
    // 2026-03-06 is a Friday in EST (UTC-5); 2026-03-09 a Monday in EDT (UTC-4).
    expect(isUsEquitySessionOpen(at('2026-03-06T14:30:00Z'))).toBe(true);
    expect(isUsEquitySessionOpen(at('2026-03-06T14:29:59Z'))).toBe(false);
    expect(isUsEquitySessionOpen(at('2026-03-06T20:59:59Z'))).toBe(true);
    expect(isUsEquitySessionOpen(at('2026-03-06T21:00:00Z'))).toBe(false);
    expect(isUsEquitySessionOpen(at('2026-03-09T13:30:00Z'))).toBe(true);
    expect(isUsEquitySessionOpen(at('2026-03-09T20:00:00Z'))).toBe(false);
  });

  it('is closed on weekends and on the holidays given', () => {
    expect(isUsEquitySessionOpen(at('2026-03-07T15:00:00Z'))).toBe(false);
    const holidays = new Set(['2026-07-03']);
    expect(isUsEquitySessionOpen(at('2026-07-03T15:00:00Z'), { holidays })).toBe(false);
    expect(isUsEquitySessionOpen(at('2026-07-03T15:00:00Z'))).toBe(true);
  });

  it('counts pre-market and after-hours as open when extended hours are asked for', () => {
    const preMarket = at('2026-03-09T09:00:00Z');
    expect(isUsEquitySessionOpen(preMarket)).toBe(false);
    expect(isUsEquitySessionOpen(preMarket, { extended: true })).toBe(true);
  });

  it('finds the next regular open, skipping weekends and holidays', () => {
    expect(nextUsEquitySessionOpen(at('2026-03-06T22:00:00Z'))).toBe(at('2026-03-09T13:30:00Z'));
    expect(nextUsEquitySessionOpen(at('2026-03-09T12:00:00Z'))).toBe(at('2026-03-09T13:30:00Z'));
    const holidays = new Set(['2026-03-09']);
    expect(nextUsEquitySessionOpen(at('2026-03-06T22:00:00Z'), { holidays })).toBe(
      at('2026-03-10T13:30:00Z'),
    );
  });

  it('ends a DAY order at the 16:00 close of its trading day, or of the next one after the close', () => {
    // Friday 6 March 2026 is EST (UTC-5): 16:00 New York = 21:00Z.
    expect(nextUsEquitySessionClose(at('2026-03-06T05:00:00Z'))).toBe(at('2026-03-06T21:00:00Z'));
    // At the close itself, and on the weekend: Monday 9 March is EDT (UTC-4) after the DST switch.
    expect(nextUsEquitySessionClose(at('2026-03-06T21:00:00Z'))).toBe(at('2026-03-09T20:00:00Z'));
    expect(nextUsEquitySessionClose(at('2026-03-08T12:00:00Z'))).toBe(at('2026-03-09T20:00:00Z'));
    expect(nextUsEquitySessionClose(at('2026-03-06T22:00:00Z'), { holidays: new Set(['2026-03-09']) })).toBe(
      at('2026-03-10T20:00:00Z'),
    );
  });

  it("finds the extended session's 20:00 close, over the weekend and the change to summer time", () => {
    const extended = { extended: true };
    // Friday 6 March 2026, EST: 20:00 New York = 01:00Z on Saturday.
    expect(nextUsEquitySessionClose(at('2026-03-06T21:00:00Z'), extended)).toBe(at('2026-03-07T01:00:00Z'));
    // At that close: Monday 9 March, EDT, 20:00 = 00:00Z on Tuesday.
    expect(nextUsEquitySessionClose(at('2026-03-07T01:00:00Z'), extended)).toBe(at('2026-03-10T00:00:00Z'));
  });

  it('writes New York wall time, yyyy-MM-dd HH:mm:ss by default', () => {
    expect(formatNewYorkTime(at('2026-01-02T14:30:00Z'))).toBe('2026-01-02 09:30:00');
  });
});
