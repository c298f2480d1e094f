import { describe, expect, it } from 'vitest';
import { parseOhlcvCsv } from '../../../backtest/csv/index.ts';

const HEADER = 'time,open,high,low,close,volume';

/** 15m bars in Berlin local time over the 2025-10-26 fall-back, the 02:xx quarter hours twice, oldest first. */
function rowsOldestFirst(): string[] {
  const rows: string[] = [];
  let price = 100;
  const add = (hh: number, mm: number) => {
    const t = `2025-10-26 ${String(hh).padStart(2, '0')}:${String(mm).padStart(2, '0')}:00`;
    rows.push(`${t},${price},${price + 1},${price - 1},${price + 0.5},10`);
    price += 1;
  };
  for (const hh of [0, 1, 2]) for (const mm of [0, 15, 30, 45]) add(hh, mm);
  for (const mm of [0, 15, 30, 45]) add(2, mm);
  for (const mm of [0, 15, 30, 45]) add(3, mm);
  return rows;
}

describe('a newest-first intraday file across the repeated daylight-saving hour', () => {
  it('reads the same bars as the oldest-first file', () => {
    const oldest = parseOhlcvCsv([HEADER, ...rowsOldestFirst()].join('\n'), { zone: 'Europe/Berlin' });
    expect(oldest.bars).toHaveLength(20);
    const newest = parseOhlcvCsv([HEADER, ...rowsOldestFirst().reverse()].join('\n'), {
      zone: 'Europe/Berlin',
    });
    expect(newest.bars.map((b) => b.openTime)).toEqual(oldest.bars.map((b) => b.openTime));
  });

  it('keeps every bar under --skip-invalid', () => {
    const newest = parseOhlcvCsv([HEADER, ...rowsOldestFirst().reverse()].join('\n'), {
      zone: 'Europe/Berlin',
      onInvalidRow: 'skip',
      interval: '15m',
    });
    expect({ bars: newest.bars.length, skipped: newest.skipped.length }).toEqual({ bars: 20, skipped: 0 });
  });

  it('still refuses a row out of order outside the repeated hour, and skips only that row when told to', () => {
    // Newest first (03:45 on line 2), with 00:30 moved up between 01:30 and 01:15, onto line 16
    const rows = rowsOldestFirst().reverse();
    const [moved] = rows.splice(17, 1);
    rows.splice(14, 0, moved as string);
    const text = [HEADER, ...rows].join('\n');
    expect(() => parseOhlcvCsv(text, { zone: 'Europe/Berlin' })).toThrow(/sort the file/);
    const { bars, skipped } = parseOhlcvCsv(text, { zone: 'Europe/Berlin', onInvalidRow: 'skip' });
    expect({ bars: bars.length, skipped }).toEqual({
      bars: 19,
      skipped: [{ line: 16, reason: expect.stringMatching(/goes back in time .*; sort the file/) }],
    });
  });
});
