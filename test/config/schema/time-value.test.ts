import { describe, expect, it } from 'vitest';
import { timeValue } from '../../../config/schema/index.ts';

const messages = (value: unknown): string[] => {
  const parsed = timeValue.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.message);
};

describe('a time value (backtest.from / to, --from / --to)', () => {
  it('refuses epoch seconds (2001 to 2286) and suggests the milliseconds, nothing else', () => {
    expect(messages(1736150400)).toEqual([
      'must be epoch milliseconds, not seconds (1736150400): write 1736150400000 or an ISO date-time like 2025-01-06T08:00:00.000Z',
    ]);
    expect(timeValue.parse(1736150400000)).toBe(1736150400000);
    expect(timeValue.parse(0)).toBe(0);
    expect(messages(10_000_000_000)).toEqual([]);
  });

  it('refuses a negative number once, without suggesting another refused value', () => {
    expect(messages(-5)).toHaveLength(1);
    expect(messages(-5)[0]).not.toContain('-5000');
  });

  it('reads an ISO date-time with microseconds, as Python isoformat() writes it, to the millisecond', () => {
    expect(timeValue.parse('2025-01-06T14:40:00.123456Z')).toBe(Date.parse('2025-01-06T14:40:00.123Z'));
  });
});
