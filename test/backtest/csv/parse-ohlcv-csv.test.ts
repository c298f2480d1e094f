import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvImportError, epochToMs, parseBarTime, parseOhlcvCsv } from '../../../backtest/csv/index.ts';

const FIXTURES = join(import.meta.dirname, '../../fixtures/csv');
const fixture = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8');

describe('OHLCV CSV reading', () => {
  it('reads exchange klines: timestamp,open,high,low,close,volume in epoch ms', () => {
    const { bars, interval, layout } = parseOhlcvCsv(fixture('binance-1m.csv'));
    expect(interval).toBe('1m');
    expect(layout.hasHeader).toBe(true);
    expect(bars[0]).toEqual({
      openTime: Date.UTC(2024, 0, 1),
      open: '42283.58',
      high: '42298.62',
      low: '42261.02',
      close: '42298.61',
      volume: '35.92724',
      line: 2,
    });
    expect(bars.map((b) => b.openTime - Date.UTC(2024, 0, 1))).toEqual([0, 60_000, 120_000]);
    expect(bars[1]!.high).toBe('42320.00');
  });

  it("reads Yahoo's Date,Open,High,Low,Close,Adj Close,Volume in the exchange's zone and skips null rows", () => {
    const { bars, interval, skipped } = parseOhlcvCsv(fixture('yahoo-daily.csv'), {
      zone: 'America/New_York',
    });
    expect(interval).toBe('1d');
    expect(bars).toHaveLength(4);
    expect(bars[0]!.openTime).toBe(Date.UTC(2024, 0, 2, 5)); // midnight EST = 05:00 UTC
    expect(bars[0]!.close).toBe('185.639999');
    expect(skipped).toEqual([{ line: 4, reason: 'no prices (empty or null row)' }]);
  });

  it("reads yfinance's three-row header (Price / Ticker / Date) with its columns in any order", () => {
    const text = [
      'Price,Close,High,Low,Open,Volume',
      'Ticker,SPY,SPY,SPY,SPY,SPY',
      'Date,,,,,',
      '2024-01-02,472.65,473.67,470.49,472.16,123623700',
      '2024-01-03,468.79,471.19,468.17,470.43,103585900',
      '2024-01-04,467.28,470.96,466.43,468.3,84232200',
    ].join('\n');
    const { bars, interval, skipped } = parseOhlcvCsv(text, { zone: 'America/New_York' });
    expect(interval).toBe('1d');
    expect(skipped).toEqual([]);
    expect(bars[0]).toEqual({
      openTime: Date.UTC(2024, 0, 2, 5),
      open: '472.16',
      high: '473.67',
      low: '470.49',
      close: '472.65',
      volume: '123623700',
      line: 4,
    });
    expect(bars).toHaveLength(3);
  });

  it("reads pandas' df.to_csv() of a frame indexed by time: the unnamed first column is the time", () => {
    const text = [
      ',Open,High,Low,Close,Volume',
      '2024-01-02 00:00:00+00:00,100.5,101,99.5,100.75,1200',
      '2024-01-03 00:00:00+00:00,100.75,102,100,101.5,900',
    ].join('\n');
    const { bars, interval } = parseOhlcvCsv(text);
    expect(interval).toBe('1d');
    expect(bars.map((b) => [b.openTime, b.open, b.close, b.volume])).toEqual([
      [Date.UTC(2024, 0, 2), '100.5', '100.75', '1200'],
      [Date.UTC(2024, 0, 3), '100.75', '101.5', '900'],
    ]);
    const rangeIndexed = [
      ',Date,Open,High,Low,Close',
      '0,2024-01-02,1,2,0.5,1.5',
      '1,2024-01-03,1.5,2,1,1.75',
    ].join('\n');
    expect(parseOhlcvCsv(rangeIndexed).bars.map((b) => b.openTime)).toEqual([
      Date.UTC(2024, 0, 2),
      Date.UTC(2024, 0, 3),
    ]);
  });

  it('scales prices by Adj Close / Close when asked', () => {
    const { bars } = parseOhlcvCsv(fixture('yahoo-daily.csv'), { adjust: true });
    expect(bars[0]!.close).toBe('184.938217');
    // 187.149994 x 184.938217 / 185.639999 = 186.442503708... to 8 places
    expect(bars[0]!.open).toBe('186.44250371');
  });

  it('reads a headerless MetaTrader export with separate date and time columns', () => {
    const { bars, interval, layout } = parseOhlcvCsv(fixture('metatrader-5m.csv'));
    expect(layout).toMatchObject({ hasHeader: false, time: 0, timeOfDay: 1, open: 2, volume: 6 });
    expect(interval).toBe('5m');
    expect(bars[0]).toMatchObject({
      openTime: Date.UTC(2024, 0, 2, 9, 30),
      open: '1.10410',
      volume: '123',
      line: 1,
    });
  });

  it('reads date,time columns in a zone across a daylight-saving change, with quoted fields', () => {
    const { bars, interval } = parseOhlcvCsv(fixture('date-time-1h.csv'), { zone: 'America/New_York' });
    expect(interval).toBe('1h');
    expect(bars.map((b) => b.openTime)).toEqual([
      Date.UTC(2024, 2, 8, 20), // 15:00 EST
      Date.UTC(2024, 2, 8, 21),
      Date.UTC(2024, 2, 11, 13), // 09:00 EDT, after the switch on 10 March
    ]);
    expect(bars[2]!.open).toBe('102');
  });

  it('reads a headerless newest-first file with semicolons and epoch seconds, oldest first', () => {
    const { bars, interval, delimiter } = parseOhlcvCsv(fixture('newest-first-4h.csv'));
    expect(delimiter).toBe(';');
    expect(interval).toBe('4h');
    expect(bars.map((b) => b.openTime)).toEqual([
      Date.UTC(2023, 11, 31, 20),
      Date.UTC(2024, 0, 1, 0),
      Date.UTC(2024, 0, 1, 4),
    ]);
  });

  it('shifts times back by one interval when they stamp the bar close', () => {
    const { bars } = parseOhlcvCsv(fixture('binance-1m.csv'), { timestampIs: 'close' });
    expect(bars[0]!.openTime).toBe(Date.UTC(2024, 0, 1) - 60_000);
  });

  it('refuses an inconsistent bar, naming file and line', () => {
    const text = 'timestamp,open,high,low,close\n0,10,11,9,10\n60000,10,9,8,10\n';
    expect(() => parseOhlcvCsv(text, { file: 'x.csv' })).toThrow(
      new CsvImportError(
        'x.csv',
        3,
        'bar 10/9/8/10 (open/high/low/close) is not consistent: open 10 is above high 9, close 10 is above high 9',
      ),
    );
    const { bars, skipped } = parseOhlcvCsv(text, { file: 'x.csv', onInvalidRow: 'skip', interval: '1m' });
    expect(bars).toHaveLength(1);
    expect(skipped[0]!.line).toBe(3);
  });

  it('says what is wrong with an inconsistent bar: high below low, or each price outside high and low', () => {
    const problem = (row: string) => {
      try {
        parseOhlcvCsv(`timestamp,open,high,low,close\n${row}\n60000,10,11,9,10\n`, { epochUnit: 'ms' });
      } catch (error) {
        return (error as Error).message.replace(/^.*is not consistent: /, '');
      }
      return 'accepted';
    };
    expect(problem('0,100,99,101,100')).toBe('high 99 is below low 101');
    expect(problem('0,104,101,100,103')).toBe('open 104 is above high 101, close 103 is above high 101');
    expect(problem('0,8,11,9,10')).toBe('open 8 is below low 9');
    expect(problem('0,10,11,9,12')).toBe('close 12 is above high 11');
    expect(problem('0,10,11,9,8')).toBe('close 8 is below low 9');
    expect(problem('0,9,11,9,11')).toBe('accepted');
  });

  it('refuses a negative price, even in a bar whose prices are consistent', () => {
    const text = 'timestamp,open,high,low,close\n0,-1,-1,-1,-1\n60000,10,11,9,10\n';
    expect(() => parseOhlcvCsv(text, { file: 'x.csv' })).toThrow(
      new CsvImportError('x.csv', 2, 'open "-1" is not a non-negative number'),
    );
  });

  it('refuses a row with fewer fields than the header names (a truncated file), or skips it when told to', () => {
    const header = 'Date,Open,High,Low,Close,Adj Close,Volume';
    const rows = ['2024-01-02,100,101,99,100,100,1000', '2024-01-03,100,101,99,100,100,1000'];
    const cut = [header, ...rows, '2024-01-04,100,111,99,110.0'].join('\n');
    const reason = 'has 5 field(s) but the header names 7: the row is cut short';
    expect(() => parseOhlcvCsv(cut, { file: 'cut.csv' })).toThrow(new CsvImportError('cut.csv', 4, reason));
    const { bars, skipped } = parseOhlcvCsv(cut, { onInvalidRow: 'skip' });
    expect(bars.map((b) => b.volume)).toEqual(['1000', '1000']);
    expect(skipped).toEqual([{ line: 4, reason }]);
    // A header ending in a separator names no column there; a headerless file's first row sets the count.
    expect(parseOhlcvCsv([`${header},`, ...rows].join('\n')).bars).toHaveLength(2);
    expect(() => parseOhlcvCsv('0,1,1,1,1,5\n60000,1,1,1,1\n', { file: 'n.csv' })).toThrow(
      'n.csv:2: has 5 field(s) but the first row has 6: the row is cut short',
    );
  });

  it('echoes a header it cannot use with the separator the file writes', () => {
    expect(() => parseOhlcvCsv('Fecha;Apertura;Maximo;Minimo;Cierre\n02/01/2024;1;2;0,5;1,5\n')).toThrow(
      'header "Fecha;Apertura;Maximo;Minimo;Cierre" has no time, open, high, low, close column',
    );
  });

  it('names the --time-format option for a time it cannot read', () => {
    expect(() => parseOhlcvCsv('time,open,high,low,close\nyesterday,1,1,1,1\n', { interval: '1m' })).toThrow(
      /is not a time Keel reads \(epoch, ISO 8601 or a date\): pass its layout with --time-format, e\.g\./,
    );
  });

  it('refuses unsorted and duplicate times, odd intervals, unknown zones, bad times and missing columns', () => {
    expect(() =>
      parseOhlcvCsv('t,o,h,l,c\n0,1,1,1,1\n120000,1,1,1,1\n60000,1,1,1,1\n', { file: 'u.csv' }),
    ).toThrow(/u\.csv:4: bar time goes back in time from line 3/);
    expect(() => parseOhlcvCsv('t,o,h,l,c\n0,1,1,1,1\n0,1,2,1,1\n', { file: 'd.csv' })).toThrow(
      /d\.csv:3: duplicate bar time with other prices \(same as line 2\)/,
    );
    expect(() => parseOhlcvCsv('t,o,h,l,c\n1704067200000,1,1,1,1\n1704067207000,1,1,1,1\n')).toThrow(
      /7 seconds apart \(7000 ms\), which is none of Keel's intervals.*resample the file/,
    );
    // Epoch ms from 2024-01-01 00:00 UTC: rows 5 minutes apart read as 1h bars, and a 1m row off the grid.
    const rows = (...offsets: number[]) =>
      `t,o,h,l,c\n${offsets.map((ms) => `${1_704_067_200_000 + ms},1,1,1,1`).join('\n')}\n`;
    expect(() => parseOhlcvCsv(rows(0, 300_000, 600_000), { file: 'i.csv', interval: '1h' })).toThrow(
      /i\.csv:3: bar starts 300000 ms after the bar on line 2, inside that 1h bar/,
    );
    expect(() =>
      parseOhlcvCsv(rows(0, 60_000, 120_000, 180_000, 210_000, 240_000), { file: 'g.csv' }),
    ).toThrow(/g\.csv:6: bar starts 30000 ms after the bar on line 5, inside that 1m bar/);
    expect(() => parseOhlcvCsv('0,1,1,1,1\n', { zone: 'Mars/Olympus' })).toThrow(/not an IANA zone/);
    expect(() => parseOhlcvCsv('time,open,high,low,close\nyesterday,1,1,1,1\n', { interval: '1m' })).toThrow(
      /:2: time "yesterday" is not a time Keel reads/,
    );
    expect(() => parseOhlcvCsv('time,open,high,close\n0,1,1,1\n')).toThrow(/has no low column/);
    expect(() => parseOhlcvCsv('\n\n')).toThrow(/the file is empty/);
  });

  it('drops a row that repeats the bar before it exactly, and lists it', () => {
    const T = 1_704_067_200_000;
    const { bars, skipped } = parseOhlcvCsv(
      `t,o,h,l,c,v\n${T},1,2,1,2,5\n${T},1,2,1,2,5\n${T + 60_000},2,3,2,3,5\n`,
    );
    expect(bars.map((b) => b.openTime)).toEqual([T, T + 60_000]);
    expect(skipped).toEqual([{ line: 3, reason: 'an exact copy of line 2' }]);
  });

  it('skips a duplicate time with other prices and a time going back when told to, listing both', () => {
    const T = 1_704_067_200_000;
    const text = `t,o,h,l,c\n${T},1,2,1,2\n${T + 60_000},2,3,2,3\n${T + 60_000},9,9,9,9\n${T},5,5,5,5\n${T + 120_000},3,4,3,4\n`;
    const { bars, skipped } = parseOhlcvCsv(text, { onInvalidRow: 'skip' });
    expect(bars.map((b) => [b.openTime - T, b.close])).toEqual([
      [0, '2'],
      [60_000, '3'],
      [120_000, '4'],
    ]);
    expect(skipped).toEqual([
      { line: 4, reason: 'duplicate bar time with other prices (same as line 3)' },
      { line: 5, reason: 'bar time goes back in time from line 3; sort the file' },
    ]);
  });

  it('reads decimal commas in a semicolon file, dots grouping thousands, and leaves a point-decimal one alone', () => {
    const european =
      'Date;Open;High;Low;Close;Volume\n2024-01-02;1.234,5;1.240,25;1.230;1.238,75;1.000\n2024-01-03;1.238,75;1.250;1.235;1.249,5;2.000\n';
    expect(
      parseOhlcvCsv(european, { interval: '1d' }).bars.map((b) => [b.open, b.high, b.low, b.close, b.volume]),
    ).toEqual([
      ['1234.5', '1240.25', '1230', '1238.75', '1000'],
      ['1238.75', '1250', '1235', '1249.5', '2000'],
    ]);
    const points =
      'time;open;high;low;close\n2024-01-02;1.230;1.240;1.225;1.235\n2024-01-03;1.235;1.250;1.230;1.245\n';
    expect(parseOhlcvCsv(points, { interval: '1d' }).bars[0]?.low).toBe('1.225');
  });

  it("reads German broker exports: onvista's Datum;Eröffnung;Hoch;Tief;Schluss;Volumen and ariva's share count before its turnover", () => {
    const onvista =
      'Datum;Eröffnung;Hoch;Tief;Schluss;Volumen\n02.01.2024;100,5;101,2;99,8;100,9;12.345\n03.01.2024;100,9;102,0;100,1;101,5;23.456\n';
    const read = parseOhlcvCsv(onvista);
    expect(read.interval).toBe('1d');
    expect(read.bars.map((b) => [b.openTime, b.open, b.high, b.low, b.close, b.volume])).toEqual([
      [Date.UTC(2024, 0, 2), '100.5', '101.2', '99.8', '100.9', '12345'],
      [Date.UTC(2024, 0, 3), '100.9', '102.0', '100.1', '101.5', '23456'],
    ]);
    // ariva writes the shares traded (Stuecke) and then the turnover in euros (Volumen).
    const ariva =
      'Datum;Erster;Hoch;Tief;Schlusskurs;Stuecke;Volumen\n02.01.2024;1.100,50;1.101,20;1.099,80;1.100,90;12.345;13.580.000,00\n03.01.2024;1.100,90;1.102,00;1.100,10;1.101,50;23.456;25.800.000,00\n';
    expect(parseOhlcvCsv(ariva).bars.map((b) => [b.open, b.close, b.volume])).toEqual([
      ['1100.50', '1100.90', '12345'],
      ['1100.90', '1101.50', '23456'],
    ]);
    // The count wins by its name, not its place: the same file with Volumen first.
    const turnoverFirst =
      'Datum;Erster;Hoch;Tief;Schlusskurs;Volumen;Stücke\n02.01.2024;1.100,50;1.101,20;1.099,80;1.100,90;13.580.000,00;12.345\n';
    expect(parseOhlcvCsv(turnoverFirst, { interval: '1d' }).bars.map((b) => b.volume)).toEqual(['12345']);
    const intraday =
      'Datum;Zeit;Eröffnung;Hoch;Tief;Schluss\n02.01.2024;09:00;10;11;9;10,5\n02.01.2024;09:05;10,5;11;10;10\n';
    const { bars, layout } = parseOhlcvCsv(intraday, { zone: 'Europe/Berlin' });
    expect(layout).toMatchObject({ time: 0, timeOfDay: 1, open: 2 });
    expect(bars.map((b) => b.openTime)).toEqual([Date.UTC(2024, 0, 2, 8, 0), Date.UTC(2024, 0, 2, 8, 5)]);
  });
  it("reads Investing.com's export: Price as the close, Vol. with K and M suffixes, newest first", () => {
    const investing = [
      '"Date","Price","Open","High","Low","Vol.","Change %"',
      '"01/31/2024","184.40","187.04","187.10","184.35","55.47M","-1.94%"',
      '"01/30/2024","188.04","190.94","191.80","187.47","45.6K","-1.92%"',
      '"01/29/2024","191.73","192.01","192.20","189.58","-","-0.36%"',
    ].join('\n');
    const { bars, interval } = parseOhlcvCsv(investing);
    expect(interval).toBe('1d');
    expect(bars.map((b) => [new Date(b.openTime).toISOString().slice(0, 10), b.close, b.volume])).toEqual([
      ['2024-01-29', '191.73', '0'],
      ['2024-01-30', '188.04', '45600'],
      ['2024-01-31', '184.40', '55470000'],
    ]);
    expect(bars[2]?.open).toBe('187.04');
  });

  it('reads US-locale thousands separators in a comma file (quoted "1,234.50", "$1,240.00", "12,345")', () => {
    const grouped = [
      'Date,Open,High,Low,Close,Volume',
      '2024-01-02,"1,234.50","$1,240.00",999.5,"1,238.25","12,345"',
      '2024-01-03,"1,238.25","1,250.00","1,235.00","1,249.00","1,234,567"',
    ].join('\n');
    expect(
      parseOhlcvCsv(grouped, { interval: '1d' }).bars.map((b) => [b.open, b.high, b.low, b.close, b.volume]),
    ).toEqual([
      ['1234.50', '1240.00', '999.5', '1238.25', '12345'],
      ['1238.25', '1250.00', '1235.00', '1249.00', '1234567'],
    ]);
    const misgrouped = 'Date,Open,High,Low,Close,Volume\n2024-01-02,"1,23.5",2,1,1.5,10\n';
    expect(() => parseOhlcvCsv(misgrouped, { interval: '1d' })).toThrow(
      'open "1,23.5" is not a non-negative number',
    );
  });

  it('reads "12,345" as twelve thousand in a tab file whose prices show decimal points', () => {
    const tsv = [
      'Date\tOpen\tHigh\tLow\tClose\tVolume',
      '2024-01-02\t189.50\t190.00\t188.00\t189.00\t12,345',
      '2024-01-03\t189.00\t191.00\t188.50\t190.50\t23,456',
    ].join('\n');
    expect(parseOhlcvCsv(tsv, { interval: '1d' }).bars.map((b) => [b.open, b.volume])).toEqual([
      ['189.50', '12345'],
      ['189.00', '23456'],
    ]);
  });

  it('does not read decimal commas in a comma file as thousands: "101,250" alone is refused, "0,125" too', () => {
    const european = [
      'Date,Open,High,Low,Close,Volume',
      '2024-01-02,"101,250","101,300","101,200","101,250",1000',
      '2024-01-03,"101,250","101,310","101,240","101,300",1000',
    ].join('\n');
    expect(() => parseOhlcvCsv(european, { interval: '1d' })).toThrow(
      'open "101,250" is not a non-negative number',
    );
    const leadingZero =
      'Date,Open,High,Low,Close,Volume\n2024-01-02,"0,125","0,130","0,120","0,128",1000.5\n';
    expect(() => parseOhlcvCsv(leadingZero, { interval: '1d' })).toThrow(
      'open "0,125" is not a non-negative number',
    );
    const mixed = 'Date,Open,High,Low,Close,Volume\n2024-01-02,"1,5",2.25,1,"1,234",10\n';
    expect(() => parseOhlcvCsv(mixed, { interval: '1d' })).toThrow('open "1,5" is not a non-negative number');
  });

  it("reads Nasdaq.com's export: Close/Last as the close and prices written with a $", () => {
    const nasdaq = [
      'Date,Close/Last,Volume,Open,High,Low',
      '01/31/2024,$397.58,29605380,$406.96,$415.32,$397.21',
      '01/30/2024,$408.59,33477580,$412.26,$413.05,$404.37',
      '01/29/2024,$409.72,24510160,$406.06,$410.51,$404.33',
    ].join('\n');
    const { bars } = parseOhlcvCsv(nasdaq);
    expect(
      bars.map((b) => [
        new Date(b.openTime).toISOString().slice(0, 10),
        b.open,
        b.high,
        b.low,
        b.close,
        b.volume,
      ]),
    ).toEqual([
      ['2024-01-29', '406.06', '410.51', '404.33', '409.72', '24510160'],
      ['2024-01-30', '412.26', '413.05', '404.37', '408.59', '33477580'],
      ['2024-01-31', '406.96', '415.32', '397.21', '397.58', '29605380'],
    ]);
  });

  it('reads the hour daylight saving repeats, written twice without an offset, as its two occurrences', () => {
    const text = [
      'time,open,high,low,close',
      '2024-11-03 00:00:00,1,2,1,2',
      '2024-11-03 01:00:00,2,3,2,3', // EDT (UTC-4): 05:00 UTC
      '2024-11-03 01:00:00,3,4,3,4', // EST (UTC-5): 06:00 UTC
      '2024-11-03 02:00:00,4,5,4,5',
    ].join('\n');
    const { bars, interval } = parseOhlcvCsv(text, { zone: 'America/New_York' });
    expect(interval).toBe('1h');
    expect(bars.map((b) => [new Date(b.openTime).toISOString().slice(11, 16), b.close])).toEqual([
      ['04:00', '2'],
      ['05:00', '3'],
      ['06:00', '4'],
      ['07:00', '5'],
    ]);
  });

  it('refuses slash dates that fit both day-first and month-first, naming both readings and --time-format', () => {
    const text = 'Date;Open;High;Low;Close\n05/03/2024 09:30;1;2;1;2\n05/03/2024 09:31;2;3;2;3\n';
    expect(() => parseOhlcvCsv(text, { file: 's.csv' })).toThrow(
      new CsvImportError(
        's.csv',
        2,
        'date "05/03/2024 09:30" reads as 5 March 2024 (day first: --time-format "d/M/yyyy H:mm") or as 3 May 2024 (month first: --time-format "M/d/yyyy H:mm"), and no date in the file has a day above 12 to tell which: pass --time-format',
      ),
    );
    expect(parseOhlcvCsv(text, { timeFormat: 'd/M/yyyy H:mm' }).bars[0]!.openTime).toBe(
      Date.UTC(2024, 2, 5, 9, 30),
    );
  });

  it('quotes a slash date that reads differently each way, not the first one when that reads the same', () => {
    const text = 'Date,Open,High,Low,Close\n01/01/2024,1,2,1,2\n01/02/2024,2,3,2,3\n01/03/2024,3,4,3,4\n';
    expect(() => parseOhlcvCsv(text, { file: 'd.csv' })).toThrow(
      'd.csv:3: date "01/02/2024" reads as 1 February 2024 (day first: --time-format "d/M/yyyy") or as 2 January 2024 (month first: --time-format "M/d/yyyy"), and no date in the file has a day above 12 to tell which: pass --time-format',
    );
  });

  it('reads slash dates that all read the same either way without asking which order', () => {
    const text = 'Date,Open,High,Low,Close\n01/01/2024 09:30,1,2,1,2\n01/01/2024 09:31,2,3,2,3\n';
    expect(parseOhlcvCsv(text).bars.map((b) => b.openTime)).toEqual([
      Date.UTC(2024, 0, 1, 9, 30),
      Date.UTC(2024, 0, 1, 9, 31),
    ]);
  });

  it('reads every slash date in the order the file shows: day-first once a first field is above 12, else month-first once a second is', () => {
    const openTimes = (...dates: string[]) =>
      parseOhlcvCsv(`Date,Open,High,Low,Close\n${dates.map((d) => `${d},1,2,1,2`).join('\n')}\n`).bars.map(
        (b) => new Date(b.openTime).toISOString().slice(0, 10),
      );
    expect(openTimes('12/02/2024', '13/02/2024', '14/02/2024')).toEqual([
      '2024-02-12',
      '2024-02-13',
      '2024-02-14',
    ]);
    expect(openTimes('02/11/2024', '02/12/2024', '02/13/2024')).toEqual([
      '2024-02-11',
      '2024-02-12',
      '2024-02-13',
    ]);
    expect(() =>
      parseOhlcvCsv('Date,Open,High,Low,Close\n13/02/2024,1,2,1,2\n02/14/2024,1,2,1,2\n', { file: 'm.csv' }),
    ).toThrow(
      'm.csv:2: date "13/02/2024" is day-first, but "02/14/2024" on line 3 is month-first: the file mixes both; pass its layout with --time-format',
    );
  });

  it('gives back daily slash dates written day-first or month-first, when the file spans more than 12 days', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date(Date.UTC(2000, 0, 1)),
          max: new Date(Date.UTC(2030, 0, 1)),
          noInvalidDate: true,
        }),
        fc.integer({ min: 13, max: 40 }),
        fc.boolean(),
        (start, days, dayFirst) => {
          const t0 = Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate());
          const times = Array.from({ length: days }, (_, i) => t0 + i * 86_400_000);
          const text = times.map((t) => {
            const d = new Date(t);
            const [day, month] = [d.getUTCDate(), d.getUTCMonth() + 1];
            return `${dayFirst ? `${day}/${month}` : `${month}/${day}`}/${d.getUTCFullYear()},1,2,1,2`;
          });
          expect(
            parseOhlcvCsv(`Date,Open,High,Low,Close\n${text.join('\n')}\n`).bars.map((b) => b.openTime),
          ).toEqual(times);
        },
      ),
    );
  });

  it('reads dotted dates day-first, as the locales writing them do', () => {
    const { bars } = parseOhlcvCsv('Date;Open;High;Low;Close\n02.01.2024;1;2;1;2\n03.01.2024;2;3;2;3\n');
    expect(bars.map((b) => b.openTime)).toEqual([Date.UTC(2024, 0, 2), Date.UTC(2024, 0, 3)]);
  });

  it('reads day-first dates with an explicit luxon format', () => {
    const { bars } = parseOhlcvCsv('Date,Open,High,Low,Close\n02/01/2024,1,2,1,2\n03/01/2024,2,3,2,3\n', {
      timeFormat: 'dd/MM/yyyy',
    });
    expect(bars[0]!.openTime).toBe(Date.UTC(2024, 0, 2));
  });

  it('gives back exactly the bars a CSV was written from', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1_500_000_000, max: 1_900_000_000 }),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 1_000_000 }), fc.nat(500), fc.nat(500), fc.nat(10_000)), {
          minLength: 2,
          maxLength: 30,
        }),
        (startSeconds, rows) => {
          const start = startSeconds * 1000;
          const lines = rows.map(([mid, up, down, vol], i) => {
            const [o, h, l, c] = [mid, mid + up, Math.max(1, mid - down), mid].map((x) =>
              (x / 100).toFixed(2),
            );
            return `${start + i * 60_000},${o},${h},${l},${c},${vol}`;
          });
          const { bars } = parseOhlcvCsv(`timestamp,open,high,low,close,volume\n${lines.join('\n')}\n`);
          expect(
            bars.map((b) => `${b.openTime},${b.open},${b.high},${b.low},${b.close},${b.volume}`),
          ).toEqual(lines);
        },
      ),
    );
  });
});

describe('bar times', () => {
  it('tells epoch seconds, milliseconds, microseconds and nanoseconds apart by magnitude', () => {
    const ms = Date.UTC(2024, 0, 1);
    expect(epochToMs(ms / 1000, 'auto')).toBe(ms);
    expect(epochToMs(ms, 'auto')).toBe(ms);
    expect(epochToMs(ms * 1000, 'auto')).toBe(ms);
    expect(epochToMs(ms * 1e6, 'auto')).toBe(ms);
    expect(epochToMs(5, 'ms')).toBe(5);
  });

  it('lets an explicit offset win over the zone, and reads compact yyyyMMdd dates as dates', () => {
    const parsing = { zone: 'Asia/Tokyo', epochUnit: 'auto' as const };
    expect(parseBarTime('2024-01-02T09:00:00Z', parsing)).toBe(Date.UTC(2024, 0, 2, 9));
    expect(parseBarTime('2024-01-02 09:00:00', parsing)).toBe(Date.UTC(2024, 0, 2, 0));
    expect(parseBarTime('20240102', parsing)).toBe(Date.UTC(2024, 0, 1, 15));
    expect(parseBarTime('1/2/2024', { zone: 'UTC', epochUnit: 'auto' })).toBe(Date.UTC(2024, 0, 2));
  });
});
