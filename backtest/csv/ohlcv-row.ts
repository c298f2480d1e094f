import { barFrom } from './bar-prices.ts';
import { readBarTime, type TimeParsing } from './bar-time.ts';
import type { ColumnLayout } from './column-layout.ts';
import { splitCsvLine } from './csv-fields.ts';
import { EMPTY_VALUES, type NumberStyle, pointDecimal, ungroupedDecimal } from './csv-numbers.ts';
import type { CsvRow } from './csv-rows.ts';
import type { RawBar } from './ohlcv-bar.ts';
import type { SkippedWallClocks } from './skipped-wall-clocks.ts';

/** How a file's rows are read as bars, once its layout, numbers and times are known. */
export interface RowReading {
  readonly layout: ColumnLayout;
  readonly delimiter: string;
  /** Fields a row must have (see {@link columnCount}). */
  readonly columns: number;
  readonly numbers: NumberStyle;
  readonly parsing: TimeParsing;
  /** Finds the times written that the zone's clocks skip. */
  readonly skippedWallClocks: SkippedWallClocks;
  /** The column the volume is read from. */
  readonly volume: number | undefined;
  readonly adjust: boolean;
  /** Added to the reason a row's time is refused, on the file's first row. */
  readonly firstRowHint: { readonly line: number; readonly hint: string } | undefined;
}

/**
 * What a row is: a bar; a row left out whatever the options (an empty or null row); a row that is no
 * valid bar (an error, or skipped under --skip-invalid); or nothing (yfinance's second and third
 * header rows).
 */
export type RowRead =
  | { readonly bar: RawBar }
  | { readonly skip: string }
  | { readonly invalid: string }
  | undefined;

/**
 * Reads a row as a bar: its fields in the layout's columns, each checked (a row cut short, no
 * prices, a time Keel does not read, prices that are no bar).
 * @param row - the row
 * @param reading - how the file's rows read
 * @returns the bar, or what else the row is
 */
export function readOhlcvRow(row: CsvRow, reading: RowReading): RowRead {
  const { layout, columns } = reading;
  const fields = splitCsvLine(row.text, reading.delimiter);
  if (layout.yfinanceHeader === true && isYfinanceHeaderRow(fields)) return undefined;
  // A row cut short (a truncated download) would otherwise read its missing volume as 0.
  if (fields.length < columns) {
    return {
      invalid: `has ${fields.length} field(s) but the ${layout.hasHeader ? 'header names' : 'first row has'} ${columns}: the row is cut short`,
    };
  }
  const at = (index: number | undefined): string => (index === undefined ? '' : (fields[index] ?? ''));
  const { decimalComma, commaGrouping } = reading.numbers;
  const num = (index: number | undefined): string =>
    decimalComma ? pointDecimal(at(index)) : commaGrouping ? ungroupedDecimal(at(index)) : at(index);
  const prices = [num(layout.open), num(layout.high), num(layout.low), num(layout.close)];
  if (prices.every((p) => EMPTY_VALUES.has(p.toLowerCase())))
    return { skip: 'no prices (empty or null row)' };
  const timeText = timeOfRow(fields, layout);
  const time = readBarTime(timeText, reading.parsing);
  if (time === null) {
    const hint = reading.firstRowHint?.line === row.line ? reading.firstRowHint.hint : '';
    return {
      invalid: `time ${JSON.stringify(timeText)} is not a time Keel reads (epoch, ISO 8601 or a date): pass its layout with --time-format, e.g. --time-format "dd.MM.yyyy HH:mm" for 31.12.2024 23:59${hint}`,
    };
  }
  const skippedWallClock =
    typeof time === 'number' ? undefined : reading.skippedWallClocks.reason(timeText, time, reading.parsing);
  if (skippedWallClock !== undefined) return { invalid: skippedWallClock };
  const ts = typeof time === 'number' ? time : time.toMillis();
  const bar = barFrom(
    prices,
    num(reading.volume),
    layout.adjClose === undefined ? undefined : num(layout.adjClose),
    reading.adjust,
  );
  return typeof bar === 'string' ? { invalid: bar } : { bar: { ts, bar: { ...bar, line: row.line } } };
}

/**
 * A row's time text: its time column's, or its date and time-of-day columns' joined by a space.
 * @param fields - the row's fields
 * @param layout - the file's layout
 * @returns the text
 */
export function timeOfRow(fields: readonly string[], layout: ColumnLayout): string {
  return layout.timeOfDay === undefined
    ? (fields[layout.time] ?? '')
    : `${fields[layout.time] ?? ''} ${fields[layout.timeOfDay] ?? ''}`;
}

/**
 * Fields a row must have: the first row's, up to its last non-empty one (a header may end in a separator).
 * @param first - the first row's fields
 * @returns the count
 */
export function columnCount(first: readonly string[]): number {
  let count = first.length;
  while (count > 0 && first[count - 1] === '') count--;
  return count;
}

/** yfinance's second and third header rows: `Ticker,AAPL,AAPL,...` and `Date,,,,,`. */
function isYfinanceHeaderRow(fields: readonly string[]): boolean {
  const first = (fields[0] ?? '').trim().toLowerCase();
  return (
    first === 'ticker' ||
    ((first === 'date' || first === 'datetime') && fields.slice(1).every((f) => f.trim() === ''))
  );
}
