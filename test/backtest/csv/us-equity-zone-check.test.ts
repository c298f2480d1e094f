import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importOhlcvCsv } from '../../../backtest/csv/index.ts';
import { tempDirsRemovedAfterAll } from '../../kit/temp-dirs.ts';

const aTempDir = tempDirsRemovedAfterAll('keel-csv-zone-');

/** 1m bars of two sessions (a Monday and Tuesday in July), written with local times and no offset. */
async function sessionCsv(dir: string, from: string, to: string): Promise<string> {
  const [fromH, fromM] = from.split(':').map(Number) as [number, number];
  const [toH, toM] = to.split(':').map(Number) as [number, number];
  const rows: string[] = ['Datetime,Open,High,Low,Close,Volume'];
  for (const day of ['2024-07-08', '2024-07-09'])
    for (let m = fromH * 60 + fromM; m < toH * 60 + toM; m++) {
      const hh = String(Math.floor(m / 60)).padStart(2, '0');
      const mm = String(m % 60).padStart(2, '0');
      rows.push(`${day} ${hh}:${mm}:00,100,101,99,100.5,1000`);
    }
  const path = join(dir, `${from.replace(':', '')}-${to.replace(':', '')}.csv`);
  await writeFile(path, `${rows.join('\n')}\n`);
  return path;
}

async function warningsOf(input: string, zone?: string): Promise<readonly string[]> {
  const output = `${input}.${zone === undefined ? 'utc' : 'ny'}.jsonl`;
  const summary = await importOhlcvCsv({ input, output, sym: 'US_EQUITY_AAPL', ...(zone ? { zone } : {}) });
  return summary.warnings;
}

describe('import of US equity bars: the time zone check', () => {
  it('warns when New York session times were read as UTC (the session would trade hours early)', async () => {
    // 09:30-16:00 read as UTC is 05:30-12:00 New York (EDT): only its last 2.5 hours in the session.
    const csv = await sessionCsv(aTempDir(), '09:30', '16:00');
    expect(await warningsOf(csv)).toEqual([
      "38 % of the bars fall in the US regular session as read (times in UTC), 100 % read as New York time: if the file's times are New York local time without an offset, import it with --zone America/New_York",
    ]);
    expect(await warningsOf(csv, 'America/New_York')).toEqual([]);
  });

  it('warns for New York extended-hours times read as UTC too, and not for UTC times of either session', async () => {
    const dir = aTempDir();
    expect(await warningsOf(await sessionCsv(dir, '04:00', '20:00'))).toEqual([
      "75 % of the bars fall in the US extended session (04:00-20:00) as read (times in UTC), 100 % read as New York time: if the file's times are New York local time without an offset, import it with --zone America/New_York",
    ]);
    // 09:30-16:00 New York in July is 13:30-20:00 UTC; the extended session 08:00-24:00 UTC.
    expect(await warningsOf(await sessionCsv(dir, '13:30', '20:00'))).toEqual([]);
    expect(await warningsOf(await sessionCsv(dir, '08:00', '23:59'))).toEqual([]);
  });
});
