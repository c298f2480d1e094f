import { Info } from 'luxon';
import { BAR_INTERVAL_MS, type BarInterval } from '../../core/model/index.ts';
import { detectInterval, refuseCoarserBars, refuseOverlaps } from './bar-interval.ts';
import { orderBars } from './bar-order.ts';
import { barFrom } from './bar-prices.ts';
import { type EpochUnit, parseBarTime, type TimeParsing } from './bar-time.ts';
import {
  type ColumnLayout,
  columnMapping,
  layoutFromHeader,
  layoutWithoutHeader,
  looksLikeHeader,
} from './column-layout.ts';
import { detectDelimiter, splitCsvLine } from './csv-fields.ts';
import { CsvImportError } from './csv-import-error.ts';
import {
  type DecimalMark,
  EMPTY_VALUES,
  numberStyleOf,
  pointDecimal,
  ungroupedDecimal,
} from './csv-numbers.ts';
import type { OhlcvBar, RawBar, SkippedRow } from './ohlcv-bar.ts';
import { slashDateOrder, type TimeText } from './slash-date-order.ts';
import { volumeColumn, volumeWarnings } from './volume-column.ts';

/** Options of {@link parseOhlcvCsv}. */
export interface OhlcvCsvOptions {
  /** File name used in error messages. */
  readonly file?: string;
  /** IANA zone for times without an offset; default `UTC`. */
  readonly zone?: string;
  /** Unit of numeric timestamps; default auto (by magnitude). */
  readonly epochUnit?: EpochUnit;
  /** A luxon format for date strings the defaults do not read (e.g. `dd/MM/yyyy`). */
  readonly timeFormat?: string;
  /** Whether a row's time is the bar's open (default, as Yahoo and most exchanges) or close. */
  readonly timestampIs?: 'open' | 'close';
  /** The bar interval; detected from the most common gap between bars when omitted. */
  readonly interval?: BarInterval;
  /**
   * Scale open, high, low and close by Adj Close / Close (splits, dividends); default false. A file
   * without an Adj Close column is refused under it.
   */
  readonly adjust?: boolean;
  /**
   * The decimal mark the numbers are written with; detected when omitted, and a file whose numbers
   * read two ways (`151.234` and `1,234` in a tab file) is refused without it.
   */
  readonly decimalMark?: DecimalMark;
  /** What to do with a row that is not a valid bar: stop with an error (default) or skip it. */
  readonly onInvalidRow?: 'error' | 'skip';
}

/** What {@link parseOhlcvCsv} found. */
export interface OhlcvCsvContents {
  readonly bars: readonly OhlcvBar[];
  readonly interval: BarInterval;
  readonly layout: ColumnLayout;
  readonly delimiter: string;
  /**
   * Rows left out: a title or URL line before the header and empty rows like Yahoo's `null`
   * holidays always, invalid rows under `skip`.
   */
  readonly skipped: readonly SkippedRow[];
  /** Which column each field was read from: `time=Date, open=Open, ..., volume=<none → 0>`. */
  readonly columns: string;
  /** What looks wrong though the file read: no volume column, or a volume of 0 on every bar. */
  readonly warnings: readonly string[];
}

/**
 * Reads an OHLCV CSV: detects the separator, the header (or its absence) and the column layout
 * (`timestamp,open,high,low,close,volume`, Yahoo's `Date,Open,High,Low,Close,Adj Close,Volume`,
 * yfinance's three-row `Price,Close,High,Low,Open,Volume` header, MetaTrader's
 * `date,time,open,...`, German exports' `Datum;Eröffnung;Hoch;Tief;Schluss`, Investing.com's
 * `Date,Price,Open,High,Low,Vol.,Change %`, Nasdaq.com's `Date,Close/Last,Volume,Open,High,Low`), parses times (epoch s / ms / us / ns, ISO 8601, SQL and common date
 * forms) in the given zone, checks each bar (low <= open, close <= high, prices above 0, no negative volume),
 * and orders the bars oldest first (a newest-first file is reversed).
 * @param text - the file's text
 * @param options - zone, epoch unit, time format, what the time means, interval, adjustment
 * @returns the bars, the interval, the layout found and the rows skipped
 * @throws CsvImportError naming the file and line of the first problem
 */
export function parseOhlcvCsv(text: string, options: OhlcvCsvOptions = {}): OhlcvCsvContents {
  const file = options.file ?? '<csv>';
  const zone = options.zone ?? 'UTC';
  if (!Info.isValidIANAZone(zone)) {
    throw new CsvImportError(
      file,
      0,
      `time zone ${JSON.stringify(zone)} is not an IANA zone like "America/New_York"`,
    );
  }
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const skipped: SkippedRow[] = [];
  let firstIndex = lines.findIndex((l) => l.trim() !== '');
  if (firstIndex === -1) throw new CsvImportError(file, 0, 'the file is empty');
  const afterTitle = lineAfterTitle(lines, firstIndex);
  if (afterTitle !== undefined) {
    skipped.push({
      line: firstIndex + 1,
      reason: `one field, no row of bars: a title or URL line before the header (${JSON.stringify((lines[firstIndex] as string).trim())})`,
    });
    firstIndex = afterTitle;
  }
  const delimiter = detectDelimiter(lines[firstIndex] as string);
  const style = numberStyleOf(lines, firstIndex, delimiter, options.decimalMark);
  if ('point' in style) {
    const { point, comma } = style;
    throw new CsvImportError(
      file,
      0,
      `the numbers read two ways: ${JSON.stringify(point.text)} (line ${point.line}) is ${point.text} with a decimal point or ${point.text.replace('.', '')} with a decimal comma, and ${JSON.stringify(comma.text)} (line ${comma.line}) is ${comma.text.replace(/[.,]/g, '')} or ${pointDecimal(comma.text)}; pass --decimal-mark point or --decimal-mark comma (decimalMark in a CSV entry)`,
    );
  }
  const { decimalComma, commaGrouping } = style;
  const first = splitCsvLine(lines[firstIndex] as string, delimiter);
  const layout = looksLikeHeader(first) ? layoutFromHeader(first, delimiter) : layoutWithoutHeader(first);
  if (typeof layout === 'string') throw new CsvImportError(file, firstIndex + 1, layout);
  if (options.adjust === true && layout.adjClose === undefined) {
    throw new CsvImportError(
      file,
      firstIndex + 1,
      `--adjust (adjust: true) scales prices by Adj Close / Close, but ${layout.hasHeader ? `header ${JSON.stringify(first.join(delimiter))} has` : 'a file without a header has'} no Adj Close column: leave --adjust out, or export the file with Adj Close`,
    );
  }

  const columns = columnCount(first);
  const firstRow = firstIndex + (layout.hasHeader ? 1 : 0);
  const timeOf = (fields: readonly string[]): string =>
    layout.timeOfDay === undefined
      ? (fields[layout.time] ?? '')
      : `${fields[layout.time] ?? ''} ${fields[layout.timeOfDay] ?? ''}`;
  const slashOrder =
    options.timeFormat === undefined
      ? slashDateOrder(timeTexts(lines, firstRow, delimiter, timeOf), file)
      : undefined;
  const parsing: TimeParsing = {
    zone,
    epochUnit: options.epochUnit ?? 'auto',
    format: options.timeFormat,
    ...(slashOrder === undefined ? {} : { slashOrder }),
  };
  const volume = volumeColumn(layout, lines, firstRow, delimiter);
  const raw: RawBar[] = [];
  const reject = (line: number, reason: string): void => {
    if (options.onInvalidRow === 'skip') skipped.push({ line, reason });
    else throw new CsvImportError(file, line, reason);
  };
  for (let i = firstRow; i < lines.length; i++) {
    const lineText = (lines[i] as string).trim();
    if (lineText === '') continue;
    const line = i + 1;
    const fields = splitCsvLine(lineText, delimiter);
    if (layout.yfinanceHeader === true && isYfinanceHeaderRow(fields)) continue;
    // A row cut short (a truncated download) would otherwise read its missing volume as 0.
    if (fields.length < columns) {
      reject(
        line,
        `has ${fields.length} field(s) but the ${layout.hasHeader ? 'header names' : 'first row has'} ${columns}: the row is cut short`,
      );
      continue;
    }
    const at = (index: number | undefined): string => (index === undefined ? '' : (fields[index] ?? ''));
    const num = (index: number | undefined): string =>
      decimalComma ? pointDecimal(at(index)) : commaGrouping ? ungroupedDecimal(at(index)) : at(index);
    const prices = [num(layout.open), num(layout.high), num(layout.low), num(layout.close)];
    if (prices.every((p) => EMPTY_VALUES.has(p.toLowerCase()))) {
      skipped.push({ line, reason: 'no prices (empty or null row)' });
      continue;
    }
    const timeText = timeOf(fields);
    const ts = parseBarTime(timeText, parsing);
    if (ts === null) {
      reject(
        line,
        `time ${JSON.stringify(timeText)} is not a time Keel reads (epoch, ISO 8601 or a date): pass its layout with --time-format, e.g. --time-format "dd.MM.yyyy HH:mm" for 31.12.2024 23:59`,
      );
      continue;
    }
    const bar = barFrom(
      prices,
      num(volume),
      layout.adjClose === undefined ? undefined : num(layout.adjClose),
      options.adjust === true,
    );
    if (typeof bar === 'string') reject(line, bar);
    else raw.push({ ts, bar: { ...bar, line } });
  }
  if (raw.length === 0) throw new CsvImportError(file, 0, 'the file holds no bars');
  const ordered = orderBars(raw, reject, skipped, zone);
  skipped.sort((a, b) => a.line - b.line);
  if (options.interval !== undefined) refuseCoarserBars(ordered, options.interval, file);
  const interval = options.interval ?? detectInterval(ordered, file);
  refuseOverlaps(ordered, interval, file, zone);
  const shift = options.timestampIs === 'close' ? BAR_INTERVAL_MS[interval] : 0;
  const bars = ordered.map((r) => ({ openTime: r.ts - shift, ...r.bar }));
  const header = layout.hasHeader ? first.join(delimiter) : undefined;
  return {
    bars,
    interval,
    layout,
    delimiter,
    skipped,
    columns: columnMapping(layout, volume),
    warnings: volumeWarnings(layout, volume, bars, header),
  };
}

/**
 * The index of the line after a leading title or URL line (CryptoDataDownload's first line is
 * its address): a line of one field, whatever the separator, followed by one of several fields.
 */
function lineAfterTitle(lines: readonly string[], firstIndex: number): number | undefined {
  const fieldCount = (line: string): number => splitCsvLine(line, detectDelimiter(line)).length;
  if (fieldCount(lines[firstIndex] as string) > 1) return undefined;
  const next = lines.findIndex((l, i) => i > firstIndex && l.trim() !== '');
  return next !== -1 && fieldCount(lines[next] as string) > 1 ? next : undefined;
}

/** The time text of every non-empty row from `firstRow` on, with its line. */
function* timeTexts(
  lines: readonly string[],
  firstRow: number,
  delimiter: string,
  timeOf: (fields: readonly string[]) => string,
): Generator<TimeText> {
  for (let i = firstRow; i < lines.length; i++) {
    const lineText = (lines[i] as string).trim();
    if (lineText !== '') yield { text: timeOf(splitCsvLine(lineText, delimiter)), line: i + 1 };
  }
}

/** Fields a row must have: the first row's, up to its last non-empty one (a header may end in a separator). */
function columnCount(first: readonly string[]): number {
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
