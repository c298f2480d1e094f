import { Info } from 'luxon';
import { BAR_INTERVAL_MS, type BarInterval, D } from '../../core/model/index.ts';
import { BarGaps, detectInterval, refuseCoarserBars, refuseOverlaps } from './bar-interval.ts';
import { BarOrdering, StepDirections } from './bar-order.ts';
import type { EpochUnit, TimeParsing } from './bar-time.ts';
import {
  type ColumnLayout,
  columnMapping,
  layoutFromHeader,
  layoutWithoutHeader,
  looksLikeHeader,
} from './column-layout.ts';
import { detectDelimiter, splitCsvLine } from './csv-fields.ts';
import { csvHead } from './csv-head.ts';
import { CsvImportError } from './csv-import-error.ts';
import { type CsvLines, textLines } from './csv-lines.ts';
import { type DecimalMark, numberStyleOf, pointDecimal } from './csv-numbers.ts';
import { backwardRows, type CsvRow, forwardRows } from './csv-rows.ts';
import { refuseWrongEpochUnit } from './epoch-unit-check.ts';
import type { OhlcvBar, RawBar, SkippedRow } from './ohlcv-bar.ts';
import { columnCount, type RowReading, readOhlcvRow, timeOfRow } from './ohlcv-row.ts';
import { SkippedWallClocks } from './skipped-wall-clocks.ts';
import { slashDateOrder, type TimeText } from './slash-date-order.ts';
import { volumeAssetWarning, volumeColumn, volumeWarnings } from './volume-column.ts';

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
  /**
   * Whether the first row (after a title line) is a header: detected when omitted (a header has a
   * field after the first that is not a number, an empty cell like `NaN` or a time of day).
   */
  readonly header?: boolean;
  /**
   * The base asset of the sym the bars are of (`BTC` of `BINANCE_SPOT_BTC_USDT`), when it has one:
   * of CryptoDataDownload's `Volume BTC,Volume USDT` the column in it is read, and a volume read in
   * another asset is warned of.
   */
  readonly baseAsset?: string;
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
  /**
   * What looks wrong though the file read: no volume column, a volume of 0 on every bar, a volume
   * in another asset than the sym's base asset.
   */
  readonly warnings: readonly string[];
}

/**
 * What a pass over an OHLCV CSV found ({@link readOhlcvCsvLines}), and its bars, read again from
 * the lines on demand.
 */
export interface OhlcvCsvPlan extends Omit<OhlcvCsvContents, 'bars'> {
  /** How many bars the file holds. */
  readonly barCount: number;
  /** The first bar's open time, epoch ms. */
  readonly firstOpenTime: number;
  /** The last bar's open time, epoch ms. */
  readonly lastOpenTime: number;
  /** The bars oldest first, read from the lines again on each call (each checked already). */
  bars(): Generator<OhlcvBar>;
}

/**
 * Reads an OHLCV CSV held in memory ({@link readOhlcvCsvLines} on its text): its bars, oldest first.
 * @param text - the file's text
 * @param options - zone, epoch unit, time format, what the time means, interval, adjustment
 * @returns the bars, the interval, the layout found and the rows skipped
 * @throws CsvImportError naming the file and line of the first problem
 */
export function parseOhlcvCsv(text: string, options: OhlcvCsvOptions = {}): OhlcvCsvContents {
  const plan = readOhlcvCsvLines(textLines(text), options);
  return {
    bars: [...plan.bars()],
    interval: plan.interval,
    layout: plan.layout,
    delimiter: plan.delimiter,
    skipped: plan.skipped,
    columns: plan.columns,
    warnings: plan.warnings,
  };
}

/**
 * Reads an OHLCV CSV: detects the separator, the header (or its absence) and the column layout
 * (`timestamp,open,high,low,close,volume`, Yahoo's `Date,Open,High,Low,Close,Adj Close,Volume`,
 * yfinance's three-row `Price,Close,High,Low,Open,Volume` header, MetaTrader's
 * `date,time,open,...`, German exports' `Datum;Eröffnung;Hoch;Tief;Schluss`, Investing.com's
 * `Date,Price,Open,High,Low,Vol.,Change %`, Nasdaq.com's `Date,Close/Last,Volume,Open,High,Low`),
 * parses times (epoch s / ms / us / ns, ISO 8601, SQL and common date forms) in the given zone,
 * checks each bar (low <= open, close <= high, prices above 0, no negative volume), and orders
 * the bars oldest first (a newest-first file is read from its end). The lines are read in passes,
 * never held: the start (layout, separator, number style), the whole file for its slash-date
 * order (and MetaTrader's tick volume), then its rows, checked and put in order, which tallies the
 * gaps the interval and the overlap checks are decided from. The bars are read once more when
 * asked for.
 * @param lines - the file's lines
 * @param options - zone, epoch unit, time format, what the time means, interval, adjustment, header
 * @returns what the file holds, and its bars on demand
 * @throws CsvImportError naming the file and line of the first problem
 */
export function readOhlcvCsvLines(lines: CsvLines, options: OhlcvCsvOptions = {}): OhlcvCsvPlan {
  const file = options.file ?? '<csv>';
  const zone = options.zone ?? 'UTC';
  if (!Info.isValidIANAZone(zone)) {
    throw new CsvImportError(
      file,
      0,
      `time zone ${JSON.stringify(zone)} is not an IANA zone like "America/New_York"`,
    );
  }
  const head = csvHead(lines, file);
  const { firstIndex } = head;
  const skipped: SkippedRow[] = head.title === undefined ? [] : [head.title];
  const firstLine = head.lines[firstIndex] as string;
  const delimiter = detectDelimiter(firstLine);
  const first = splitCsvLine(firstLine, delimiter);
  const hasHeader = options.header ?? looksLikeHeader(first);
  const style = numberStyleOf(head.lines, firstIndex, delimiter, options.decimalMark, hasHeader);
  if ('point' in style) {
    const { point, comma } = style;
    throw new CsvImportError(
      file,
      0,
      `the numbers read two ways: ${JSON.stringify(point.text)} (line ${point.line}) is ${point.text} with a decimal point or ${point.text.replace('.', '')} with a decimal comma, and ${JSON.stringify(comma.text)} (line ${comma.line}) is ${comma.text.replace(/[.,]/g, '')} or ${pointDecimal(comma.text)}; pass --decimal-mark point or --decimal-mark comma (decimalMark in a CSV entry)`,
    );
  }
  const hint = headerHint(options.header, hasHeader);
  const layout = hasHeader
    ? layoutFromHeader(first, delimiter, options.baseAsset)
    : layoutWithoutHeader(first);
  if (typeof layout === 'string') throw new CsvImportError(file, firstIndex + 1, `${layout}${hint}`);
  if (options.adjust === true && layout.adjClose === undefined) {
    throw new CsvImportError(
      file,
      firstIndex + 1,
      `--adjust (adjust: true) scales prices by Adj Close / Close, but ${layout.hasHeader ? `header ${JSON.stringify(first.join(delimiter))} has` : 'a file without a header has'} no Adj Close column: leave --adjust out, or export the file with Adj Close`,
    );
  }

  const firstRow = firstIndex + (layout.hasHeader ? 1 : 0);
  const rows = (): Generator<CsvRow> => forwardRows(lines, firstRow);
  const slashOrder =
    options.timeFormat === undefined ? slashDateOrder(timeTexts(rows(), delimiter, layout), file) : undefined;
  const reading: RowReading = {
    layout,
    delimiter,
    columns: columnCount(first),
    numbers: style,
    parsing: {
      zone,
      epochUnit: options.epochUnit ?? 'auto',
      format: options.timeFormat,
      ...(slashOrder === undefined ? {} : { slashOrder }),
    } satisfies TimeParsing,
    skippedWallClocks: new SkippedWallClocks(),
    volume: volumeColumn(layout, rows, delimiter),
    adjust: options.adjust === true,
    firstRowHint: layout.hasHeader ? undefined : { line: firstIndex + 1, hint },
  };
  const reject = (line: number, reason: string): void => {
    if (options.onInvalidRow === 'skip') skipped.push({ line, reason });
    else throw new CsvImportError(file, line, reason);
  };

  const checked = checkRows(lines, firstRow, reading, skipped, {
    file,
    zone,
    skipInvalid: options.onInvalidRow === 'skip',
  });
  let { tally } = checked;
  if (checked.newestFirst) {
    tally = new BarTally(zone);
    const ordering = new BarOrdering(reject, skipped, zone, (bar) => tally.add(bar));
    for (const bar of barsOf(backwardRows(lines, firstRow, checked.lineCount), reading)) ordering.add(bar);
    ordering.end();
  }
  skipped.sort((a, b) => a.line - b.line);
  refuseWrongEpochUnit(
    tally.gaps,
    { first: (tally.first as RawBar).ts, last: (tally.last as RawBar).ts },
    reading.parsing.epochUnit,
    options.interval,
    file,
  );
  if (options.interval !== undefined) refuseCoarserBars(tally.gaps, options.interval, file);
  const interval = options.interval ?? detectInterval(tally.gaps, file);
  refuseOverlaps(tally.gaps, interval, file);
  const shift = options.timestampIs === 'close' ? BAR_INTERVAL_MS[interval] : 0;
  const header = layout.hasHeader ? first.join(delimiter) : undefined;
  const assetWarning = volumeAssetWarning(layout, reading.volume, options.baseAsset);
  return {
    interval,
    layout,
    delimiter,
    skipped,
    columns: columnMapping(layout, reading.volume),
    warnings: [
      ...volumeWarnings(layout, reading.volume, tally.everyVolumeZero, header),
      ...(assetWarning === undefined ? [] : [assetWarning]),
    ],
    barCount: tally.gaps.bars,
    firstOpenTime: (tally.first as RawBar).ts - shift,
    lastOpenTime: (tally.last as RawBar).ts - shift,
    bars: function* () {
      // Ordered again as when checked: every problem is known, so none is reported twice.
      const settled: RawBar[] = [];
      const ordering = new BarOrdering(
        () => {},
        [],
        zone,
        (bar) => settled.push(bar),
      );
      const source = checked.newestFirst
        ? backwardRows(lines, firstRow, checked.lineCount)
        : forwardRows(lines, firstRow);
      const passOn = function* (): Generator<OhlcvBar> {
        for (const r of settled) yield { openTime: r.ts - shift, ...r.bar };
        settled.length = 0;
      };
      for (const bar of barsOf(source, reading)) {
        ordering.add(bar);
        yield* passOn();
      }
      ordering.end();
      yield* passOn();
    },
  };
}

/** What the ordered bars tell: their gaps, their first and last, whether every volume is 0. */
class BarTally {
  readonly gaps: BarGaps;
  first: RawBar | undefined;
  last: RawBar | undefined;
  everyVolumeZero = true;

  constructor(zone: string) {
    this.gaps = new BarGaps(zone);
  }

  add(bar: RawBar): void {
    this.gaps.add(bar);
    this.first ??= bar;
    this.last = bar;
    if (this.everyVolumeZero && !D(bar.bar.volume).isZero()) this.everyVolumeZero = false;
  }
}

/** What the pass that checks each row found. */
interface CheckedRows {
  /** Whether the file runs newest first (its bars are then ordered from its end). */
  readonly newestFirst: boolean;
  /** The tally of the bars ordered from the file's start, when it runs oldest first. */
  readonly tally: BarTally;
  readonly lineCount: number;
}

/**
 * Checks each row in file order (a row that is no bar is rejected, or listed as skipped) while
 * ordering the bars as though the file ran oldest first. A problem ordering them is held back until
 * every row is checked, as rows are checked before the bars are put in order: a file that runs
 * newest first is ordered again from its end, and only an oldest-first file's problems count.
 */
function checkRows(
  lines: CsvLines,
  firstRow: number,
  reading: RowReading,
  skipped: SkippedRow[],
  {
    file,
    zone,
    skipInvalid,
  }: { readonly file: string; readonly zone: string; readonly skipInvalid: boolean },
): CheckedRows {
  const reject = (line: number, reason: string): void => {
    if (skipInvalid) skipped.push({ line, reason });
    else throw new CsvImportError(file, line, reason);
  };
  const directions = new StepDirections();
  const tally = new BarTally(zone);
  const orderingSkipped: SkippedRow[] = [];
  let orderingProblem: { line: number; reason: string } | undefined;
  const ordering = new BarOrdering(
    (line, reason) => {
      if (skipInvalid) orderingSkipped.push({ line, reason });
      else orderingProblem ??= { line, reason };
    },
    orderingSkipped,
    zone,
    (bar) => tally.add(bar),
  );
  let lineCount = 0;
  let bars = 0;
  for (const row of forwardRows(lines, firstRow, (count) => {
    lineCount = count;
  })) {
    const read = readOhlcvRow(row, reading);
    if (read === undefined) continue;
    if ('skip' in read) skipped.push({ line: row.line, reason: read.skip });
    else if ('invalid' in read) reject(row.line, read.invalid);
    else {
      bars++;
      directions.add(read.bar.ts);
      if (orderingProblem === undefined) ordering.add(read.bar);
    }
  }
  ordering.end();
  if (bars === 0) throw new CsvImportError(file, 0, 'the file holds no bars');
  const newestFirst = directions.newestFirst();
  if (!newestFirst) {
    if (orderingProblem !== undefined) reject(orderingProblem.line, orderingProblem.reason);
    // One at a time: a spread of many rows would overflow the stack.
    for (const row of orderingSkipped) skipped.push(row);
  }
  return { newestFirst, tally, lineCount };
}

/** The bars of the rows that read as bars (the others were reported when the rows were checked). */
function* barsOf(rows: Iterable<CsvRow>, reading: RowReading): Generator<RawBar> {
  for (const row of rows) {
    const read = readOhlcvRow(row, reading);
    if (read !== undefined && 'bar' in read) yield read.bar;
  }
}

/** The time text of each row, with its line. */
function* timeTexts(rows: Iterable<CsvRow>, delimiter: string, layout: ColumnLayout): Generator<TimeText> {
  for (const row of rows)
    yield { text: timeOfRow(splitCsvLine(row.text, delimiter), layout), line: row.line };
}

/**
 * What an error about the first row adds: whether it was taken as a header or as bars, and the
 * option that says otherwise; nothing when the option said it.
 */
function headerHint(given: boolean | undefined, hasHeader: boolean): string {
  if (given !== undefined) return '';
  return hasHeader
    ? ' (the first row was taken as a header, as a field after its first is not a number: pass --no-header, header: false in a CSV entry, if the file has none)'
    : ' (the first row was read as a bar, as its fields after the first are numbers: pass --header, header: true in a CSV entry, if it is a header)';
}
