import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../../../config/cli/index.ts';
import { keelInProcess } from '../../../kit/keel-in-process.ts';
import { bboRecord, writeRecording } from '../../../kit/recording-files.ts';
import { tempDirsRemovedAfterEach } from '../../../kit/temp-dirs.ts';

const aDir = tempDirsRemovedAfterEach('keel-import-csv-');

/** Runs `keel import-csv` in this process, capturing its output. */
const importCsv = (args: string[]) => keelInProcess(['import-csv', ...args]);

/** Writes a CSV and returns its path and the path of the recording to write. */
function files(lines: readonly string[]): { csv: string; out: string } {
  const dir = aDir();
  const csv = join(dir, 'bars.csv');
  writeFileSync(csv, `${lines.join('\n')}\n`);
  return { csv, out: join(dir, 'bars.jsonl') };
}

/** The recording's header and the data of its KLINE pushes. */
function recordingOf(path: string) {
  const [header, ...records] = readFileSync(path, 'utf8').trim().split('\n');
  return {
    header: JSON.parse(header as string) as { synthetic: boolean; description: string },
    bars: records.map(
      (line) => (JSON.parse(line) as { msg: { data: Record<string, string | number> } }).msg.data,
    ),
  };
}

const YAHOO = [
  'Date,Open,High,Low,Close,Adj Close,Volume',
  '2024-03-07,100,104,98,102,51,1000',
  '2024-03-08,102,106,100,104,52,1000',
  '2024-03-11,104,108,102,106,53,1000',
];

describe('keel import-csv', () => {
  it('reads dates in --zone (daylight saving included) and scales prices by Adj Close with --adjust', async () => {
    const { csv, out } = files(YAHOO);
    const run = await importCsv([
      csv,
      '--sym',
      'US_EQUITY_SPY',
      '--out',
      out,
      '--zone',
      'America/New_York',
      '--adjust',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(EXIT.OK);
    expect(run.stdout).toMatch(/^✔ 3 1d bars of US_EQUITY_SPY from 2024-03-07T05:00:00.000Z/);
    const { header, bars } = recordingOf(out);
    expect(header.synthetic).toBe(false);
    expect(header.description).toContain('times read in America/New_York, adjusted by Adj Close');
    // New York midnight is 05:00Z before the switch to daylight saving on 10 March, 04:00Z after.
    expect(bars.map((bar) => new Date(bar.openTime as number).toISOString())).toEqual([
      '2024-03-07T05:00:00.000Z',
      '2024-03-08T05:00:00.000Z',
      '2024-03-11T04:00:00.000Z',
    ]);
    expect([bars[0]?.open, bars[0]?.high, bars[0]?.low, bars[0]?.close]).toEqual(['50', '52', '49', '51']);
  });

  it('reads UTC and unadjusted prices by default, and labels generated data with --synthetic', async () => {
    const { csv, out } = files(YAHOO);
    const run = await importCsv([csv, '--sym', 'US_EQUITY_SPY', '--out', out, '--synthetic']);
    expect(run.code).toBe(EXIT.OK);
    const { header, bars } = recordingOf(out);
    expect(header.synthetic).toBe(true);
    expect(new Date(bars[0]?.openTime as number).toISOString()).toBe('2024-03-07T00:00:00.000Z');
    expect(bars[0]?.open).toBe('100');
  });

  it('takes epoch seconds stamped at the close of a given interval', async () => {
    const close = Date.UTC(2025, 0, 6, 15) / 1000;
    const { csv, out } = files([`${close},10,12,9,11,5`, `${close + 3600},11,13,10,12,5`]);
    const run = await importCsv([
      csv,
      '--sym',
      'BINANCE_SPOT_BTC_USDT',
      '--out',
      out,
      '--epoch-unit',
      's',
      '--timestamp-is',
      'close',
      '--interval',
      '1h',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(EXIT.OK);
    const { header, bars } = recordingOf(out);
    expect(header.description).toContain('(1h, times read in UTC, stamped at close)');
    expect(bars.map((bar) => new Date(bar.openTime as number).toISOString())).toEqual([
      '2025-01-06T14:00:00.000Z',
      '2025-01-06T15:00:00.000Z',
    ]);
  });

  it('stops at an invalid bar naming its line, exit 2 (bad input), or with --skip-invalid lists the rows it left out', async () => {
    const lines = [...YAHOO.slice(0, 3), '2024-03-09,104,101,102,103,52,1000', YAHOO[3] as string];
    const bad = files(lines);
    const stopped = await importCsv([bad.csv, '--sym', 'US_EQUITY_SPY', '--out', bad.out]);
    expect(stopped.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    expect(stopped.stderr).toMatch(
      /^✖ keel import-csv: .*bars\.csv:4: bar 104\/101\/102\/103 .* is not consistent: high 101 is below low 102\n$/,
    );
    const { csv, out } = files(lines);
    const skipped = await importCsv([csv, '--sym', 'US_EQUITY_SPY', '--out', out, '--skip-invalid']);
    expect(skipped.code).toBe(EXIT.OK);
    expect(skipped.stdout).toMatch(/^✔ 3 1d bars .*\(1 rows skipped\)\n {2}line 4: /);
    expect(recordingOf(out).bars).toHaveLength(3);
  });

  it('refuses a truncated last row naming its line, exit 2, instead of importing it with volume 0', async () => {
    const { csv, out } = files([...YAHOO, '2024-03-12,106,110,104,108.0']);
    const run = await importCsv([csv, '--sym', 'US_EQUITY_SPY', '--out', out]);
    expect(run.stderr).toMatch(
      /bars\.csv:5: has 5 field\(s\) but the header names 7: the row is cut short\n$/,
    );
    expect(run.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
  });

  it('refuses an unknown sym before reading the file, exit 2', async () => {
    const { csv, out } = files(YAHOO);
    const run = await importCsv([csv, '--sym', 'SPY', '--out', out]);
    expect(run.stderr).toContain(`option '--sym <sym>' argument 'SPY' is invalid. sym "SPY" is not`);
    expect(run.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
  });

  it('refuses to write the recording over the CSV it reads, exit 2, leaving the CSV as it was', async () => {
    const { csv } = files(YAHOO);
    const sameFile = join(csv, '..', '.', 'bars.csv');
    const run = await importCsv([csv, '--sym', 'US_EQUITY_SPY', '--out', sameFile]);
    expect(run.stderr).toMatch(/bars\.csv: is the CSV being imported; write the recording to another file/);
    expect(run.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    expect(readFileSync(csv, 'utf8')).toBe(`${YAHOO.join('\n')}\n`);
  });

  it('creates the folder of --out when it is not there, as a backtest creates its out/', async () => {
    const { csv, out } = files(YAHOO);
    const nested = join(out, '..', 'new', 'dir', 'bars.jsonl.gz');
    const run = await importCsv([csv, '--sym', 'US_EQUITY_SPY', '--out', nested]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(EXIT.OK);
    expect(existsSync(nested)).toBe(true);
  });

  it.each(['bars.csv', 'bars.json', 'bars.gz', 'bars'])(
    'refuses an --out named %s (not .jsonl or .jsonl.gz), exit 2, before writing anything',
    async (name) => {
      const { csv, out } = files(YAHOO);
      const other = join(out, '..', 'other', name);
      const run = await importCsv([csv, '--sym', 'US_EQUITY_SPY', '--out', other]);
      expect(run.stderr).toContain(`${name}: a recording is written as .jsonl or .jsonl.gz`);
      expect(run.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
      expect(existsSync(join(out, '..', 'other'))).toBe(false);
    },
  );

  it('keeps a session recording at --out aside under a dated name instead of overwriting it, and says so on stderr', async () => {
    const { csv, out } = files(YAHOO);
    await writeRecording(out, [bboRecord(1), bboRecord(2)]);
    const session = readFileSync(out, 'utf8');
    const first = await importCsv([csv, '--sym', 'US_EQUITY_SPY', '--out', out]);
    expect(first.code).toBe(EXIT.OK);
    const kept = /kept as (\S+), not overwritten\n/.exec(first.stderr)?.[1];
    expect(kept, first.stderr).toBeDefined();
    // A session's naming: stem, UTC time of its last write, ending.
    expect(basename(kept as string)).toMatch(/^bars\.\d{8}T\d{6}Z\.jsonl$/);
    expect(readFileSync(join(dirname(out), basename(kept as string)), 'utf8')).toBe(session);
    expect(first.stdout).not.toContain('kept as');
    expect(recordingOf(out).bars).toHaveLength(3);
  });

  // Changed on purpose: an earlier import at --out was overwritten without a word; its CSV may be
  // gone or read with other options since, so it is kept aside as any recording is.
  it('keeps its own earlier import at --out aside too, each under its own name', async () => {
    const { csv, out } = files(YAHOO);
    expect((await importCsv([csv, '--sym', 'US_EQUITY_SPY', '--out', out])).stderr).toBe('');
    const earlier = readFileSync(out, 'utf8');
    const names: string[] = [];
    for (const _ of [1, 2]) {
      const again = await importCsv([csv, '--sym', 'US_EQUITY_SPY', '--out', out, '--adjust']);
      expect(again.code).toBe(EXIT.OK);
      const kept =
        /^⚠ .*bars\.jsonl already existed: the earlier file was kept as (\S+), not overwritten\n$/.exec(
          again.stderr,
        )?.[1];
      expect(kept, again.stderr).toBeDefined();
      names.push(basename(kept as string));
    }
    expect(new Set(names).size).toBe(2);
    expect(readFileSync(join(dirname(out), names[0] as string), 'utf8')).toBe(earlier);
    expect(recordingOf(out).bars[0]?.close).toBe('51');
  });

  it('leaves a recording at --out in place when the CSV cannot be imported', async () => {
    const { csv, out } = files([...YAHOO, '2024-03-12,106,110,104,oops,54,1000']);
    await writeRecording(out, [bboRecord(1)]);
    const before = readFileSync(out, 'utf8');
    const run = await importCsv([csv, '--sym', 'US_EQUITY_SPY', '--out', out]);
    expect(run.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    expect(run.stderr).not.toContain('kept as');
    expect(readFileSync(out, 'utf8')).toBe(before);
    expect(readdirSync(dirname(out)).sort()).toEqual(['bars.csv', 'bars.jsonl']);
  });

  it('shows the columns it read each field from, and warns when no column holds the volume', async () => {
    const { csv, out } = files([
      'Date,Open,High,Low,Close',
      '2024-03-07,100,104,98,102',
      '2024-03-08,102,106,100,104',
    ]);
    const run = await importCsv([csv, '--sym', 'US_EQUITY_SPY', '--out', out]);
    expect(run.code).toBe(EXIT.OK);
    expect(run.stdout.split('\n').slice(1)).toEqual([
      '  columns: time=Date, open=Open, high=High, low=Low, close=Close, volume=<none → 0>',
      '⚠ no volume column (header "Date,Open,High,Low,Close"): every bar\'s volume is 0',
      '',
    ]);
  });

  it('reads a file whose numbers read two ways with the --decimal-mark given, and refuses it without', async () => {
    const { csv, out } = files([
      'Date\tOpen\tHigh\tLow\tClose\tVolume',
      '2024-01-02\t151.234\t152.345\t150.123\t151.987\t1,234',
      '2024-01-03\t151.987\t152.500\t151.000\t152.100\t2,345',
    ]);
    const refused = await importCsv([csv, '--sym', 'US_EQUITY_SPY', '--out', out]);
    expect(refused.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    expect(refused.stderr).toContain('the numbers read two ways');
    const run = await importCsv([csv, '--sym', 'US_EQUITY_SPY', '--out', out, '--decimal-mark', 'point']);
    expect(run.code).toBe(EXIT.OK);
    expect(recordingOf(out).bars.map((bar) => [bar.open, bar.volume])).toEqual([
      ['151.234', '1234'],
      ['151.987', '2345'],
    ]);
  });

  it('reads the first row as a bar with --no-header and as a header with --header, and says which it assumed', async () => {
    const rows = ['x,p,q,r,s', '1704067200000,10,11,9,10', '1704067260000,10,11,9,10'];
    const { csv, out } = files(rows);
    const refused = await importCsv([csv, '--sym', 'US_EQUITY_SPY', '--out', out]);
    expect(refused.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    expect(refused.stderr).toContain('the first row was taken as a header');
    expect(refused.stderr).toContain('pass --no-header');
    const skipped = await importCsv([
      csv,
      '--sym',
      'US_EQUITY_SPY',
      '--out',
      out,
      '--no-header',
      '--skip-invalid',
    ]);
    expect(skipped.code).toBe(EXIT.OK);
    expect(skipped.stdout).toContain('line 1: time "x" is not a time Keel reads');
    expect(recordingOf(out).bars).toHaveLength(2);
    const forced = await importCsv([csv, '--sym', 'US_EQUITY_SPY', '--out', out, '--header']);
    expect(forced.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    expect(forced.stderr).toContain('header "x,p,q,r,s" has no time, open, high, low, close column');
    expect(forced.stderr).not.toContain('--no-header');
  });

  it.each([
    [['--decimal-mark', 'dot'], 'Allowed choices are point, comma'],
    [['--zone', 'Mars/Olympus'], 'must be an IANA time zone'],
    [['--timestamp-is', 'middle'], 'Allowed choices are open, close'],
    [['--interval', '7m'], 'Allowed choices are'],
  ])('refuses %j as a usage error, exit 2', async (flags, message) => {
    const { csv, out } = files(YAHOO);
    const run = await importCsv([csv, '--sym', 'US_EQUITY_SPY', '--out', out, ...flags]);
    expect(run.code).toBe(EXIT.BAD_CONFIG_OR_USAGE);
    expect(run.stderr).toContain(message);
  });
});
