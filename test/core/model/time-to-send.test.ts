import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { formatTimeToSend, parseTimeToSend } from '../../../core/model/index.ts';

const at = (iso: string): number => Date.parse(iso);

/** Whether New York reads the same wall-clock time twice around `ts` (the autumn fall-back hour). */
function inRepeatedHour(ts: number): boolean {
  const local = DateTime.fromMillis(ts, { zone: 'America/New_York' });
  const hourLater = DateTime.fromMillis(ts + 3_600_000, { zone: 'America/New_York' });
  const hourEarlier = DateTime.fromMillis(ts - 3_600_000, { zone: 'America/New_York' });
  return local.offset !== hourLater.offset || local.offset !== hourEarlier.offset;
}

describe('timeToSend: the TIME order’s send time, New York wall-clock time', () => {
  it('writes and reads the same moment in winter (EST, UTC-5) and in summer (EDT, UTC-4)', () => {
    expect(formatTimeToSend(at('2025-01-06T14:33:30Z'))).toBe('2025-01-06 09:33:30');
    expect(parseTimeToSend('2025-01-06 09:33:30')).toBe(at('2025-01-06T14:33:30Z'));
    expect(formatTimeToSend(at('2025-07-07T13:30:00Z'))).toBe('2025-07-07 09:30:00');
    expect(parseTimeToSend('2025-07-07 09:30:00')).toBe(at('2025-07-07T13:30:00Z'));
  });

  it('reads the minutes either side of the spring change an hour of UTC apart less than of wall clock', () => {
    expect(parseTimeToSend('2026-03-08 01:59:00')).toBe(at('2026-03-08T06:59:00Z'));
    expect(parseTimeToSend('2026-03-08 03:00:00')).toBe(at('2026-03-08T07:00:00Z'));
    // 02:30 never happens that day: read as the wall clock after the change would (03:30 EDT)
    expect(parseTimeToSend('2026-03-08 02:30:00')).toBe(at('2026-03-08T07:30:00Z'));
  });

  it('reads the hour the autumn change repeats as its second occurrence, in standard time: never early', () => {
    expect(parseTimeToSend('2026-11-01 01:30:00')).toBe(at('2026-11-01T06:30:00Z'));
    expect(parseTimeToSend('2026-11-01 02:00:00')).toBe(at('2026-11-01T07:00:00Z'));
  });

  it('gives back every whole second it wrote, outside the hour the autumn change repeats', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: at('2000-01-01T00:00:00Z') / 1000, max: at('2040-01-01T00:00:00Z') / 1000 }),
        (s) => {
          const ts = s * 1000;
          fc.pre(!inRepeatedHour(ts));
          expect(parseTimeToSend(formatTimeToSend(ts))).toBe(ts);
        },
      ),
    );
  });

  it('writes a moment between two seconds as the later one, so a TIME order never goes early', () => {
    expect(formatTimeToSend(at('2025-01-06T14:33:29.001Z'))).toBe('2025-01-06 09:33:30');
    expect(formatTimeToSend(at('2025-01-06T14:33:29.999Z'))).toBe('2025-01-06 09:33:30');
    fc.assert(
      fc.property(fc.integer({ min: at('2000-01-01T00:00:00Z'), max: at('2040-01-01T00:00:00Z') }), (ts) => {
        fc.pre(!inRepeatedHour(ts));
        const sent = parseTimeToSend(formatTimeToSend(ts));
        expect(sent).toBeGreaterThanOrEqual(ts);
        expect(sent - ts).toBeLessThan(1000);
      }),
    );
  });

  it('refuses text that is not yyyy-MM-dd HH:mm:ss or not a calendar time', () => {
    for (const text of [
      '2025-01-06T09:33:30',
      '2025-1-6 9:33:30',
      '2025-02-30 10:00:00',
      '2025-13-01 00:00:00',
      '',
    ])
      expect(parseTimeToSend(text)).toBeNaN();
  });
});
