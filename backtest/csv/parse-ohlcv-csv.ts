import { Info } from 'luxon';
import { BAR_INTERVAL_MS, type BarInterval, D } from '../../core/model/index.ts';
import { type EpochUnit, earlierOccurrence, parseBarTime, type TimeParsing } from './bar-time.ts';
import {
  type ColumnLayout,
  layoutFromHeader,
  layoutWithoutHeader,
  looksLikeHeader,
} from './column-layout.ts';
import { detectDelimiter, splitCsvLine } from './csv-fields.ts';
import { CsvImportError } from './csv-import-error.ts';
import { slashDateOrder, type TimeText } from './slash-date-order.ts';

/** One OHLCV bar as imported: prices and volume as exact decimal strings. */
export interface OhlcvBar {
  /** Bar open time, epoch ms. */
  readonly openTime: number;
  readonly open: string;
  readonly high: string;
  readonly low: string;
  readonly close: string;
  readonly volume: string;
  /** Line of the CSV file the bar came from. */
  readonly line: number;
}

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
  /** Scale open, high, low and close by Adj Close / Close (splits, dividends); default false. */
  readonly adjust?: boolean;
  /** What to do with a row that is not a valid bar: stop with an error (default) or skip it. */
  readonly onInvalidRow?: 'error' | 'skip';
}

/** A row the importer left out, and why. */
export interface SkippedRow {
  readonly line: number;
  readonly reason: string;
}

/** What {@link parseOhlcvCsv} found. */
export interface OhlcvCsvContents {
  readonly bars: readonly OhlcvBar[];
  readonly interval: BarInterval;
  readonly layout: ColumnLayout;
  readonly delimiter: string;
  /** Rows left out: empty rows like Yahoo's `null` holidays always, invalid rows under `skip`. */
  readonly skipped: readonly SkippedRow[];
}

const PLAIN_DECIMAL = /^\d+(\.\d+)?$/;
const EMPTY_VALUES = new Set(['', 'null', 'nan', 'na', 'n/a', '-']);

const DECIMAL_COMMA_NUMBER = /^[-+]?\d[\d.]*,\d+$/;
const GROUPED_NUMBER = /^[-+]?\d{1,3}(\.\d{3})*(,\d+)?$/;

/**
 * Whether a file not separated by commas writes its numbers with a decimal comma (European
 * exports: `1,5`, `1.234,56`), seen in its first thousand rows. Then a dot only groups thousands.
 */
function usesDecimalComma(lines: readonly string[], firstIndex: number, delimiter: string): boolean {
  if (delimiter === ',') return false;
  const end = Math.min(lines.length, firstIndex + 1001);
  for (let i = firstIndex + 1; i < end; i++) {
    const fields = splitCsvLine(lines[i] as string, delimiter);
    if (fields.slice(1).some((f) => DECIMAL_COMMA_NUMBER.test(f))) return true;
  }
  return false;
}

/** In a decimal-comma file, `1,5` and `1.234,56` as `1.5` and `1234.56`; other text as it is. */
function pointDecimal(text: string): string {
  return GROUPED_NUMBER.test(text) ? text.replace(/\./g, '').replace(',', '.') : text;
}

function decimalText(text: string): string | null {
  const t = text.startsWith('+') ? text.slice(1) : text;
  if (PLAIN_DECIMAL.test(t)) return t;
  if (!/^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) return null;
  return new D(t).toFixed();
}

interface RawBar {
  readonly ts: number;
  readonly bar: Omit<OhlcvBar, 'openTime'>;
}

/**
 * Reads an OHLCV CSV: detects the separator, the header (or its absence) and the column layout
 * (`timestamp,open,high,low,close,volume`, Yahoo's `Date,Open,High,Low,Close,Adj Close,Volume`,
 * yfinance's three-row `Price,Close,High,Low,Open,Volume` header, MetaTrader's
 * `date,time,open,...`, German exports' `Datum;Eröffnung;Hoch;Tief;Schluss`), parses times (epoch s / ms / us / ns, ISO 8601, SQL and common date
 * forms) in the given zone, checks each bar (low <= open, close <= high, no negative values),
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
  const firstIndex = lines.findIndex((l) => l.trim() !== '');
  if (firstIndex === -1) throw new CsvImportError(file, 0, 'the file is empty');
  const delimiter = detectDelimiter(lines[firstIndex] as string);
  const decimalComma = usesDecimalComma(lines, firstIndex, delimiter);
  const first = splitCsvLine(lines[firstIndex] as string, delimiter);
  const layout = looksLikeHeader(first) ? layoutFromHeader(first, delimiter) : layoutWithoutHeader(first);
  if (typeof layout === 'string') throw new CsvImportError(file, firstIndex + 1, layout);

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
  const skipped: SkippedRow[] = [];
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
    const num = (index: number | undefined): string => (decimalComma ? pointDecimal(at(index)) : at(index));
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
      num(layout.volume),
      layout.adjClose === undefined ? undefined : num(layout.adjClose),
      options.adjust === true,
    );
    if (typeof bar === 'string') reject(line, bar);
    else raw.push({ ts, bar: { ...bar, line } });
  }
  if (raw.length === 0) throw new CsvImportError(file, 0, 'the file holds no bars');
  const ordered = orderBars(raw, reject, skipped, zone);
  skipped.sort((a, b) => a.line - b.line);
  const interval = options.interval ?? detectInterval(ordered, file);
  refuseOverlaps(ordered, interval, file);
  const shift = options.timestampIs === 'close' ? BAR_INTERVAL_MS[interval] : 0;
  const bars = ordered.map((r) => ({ openTime: r.ts - shift, ...r.bar }));
  return { bars, interval, layout, delimiter, skipped };
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

function barFrom(
  prices: readonly string[],
  volumeText: string,
  adjCloseText: string | undefined,
  adjust: boolean,
): Omit<OhlcvBar, 'openTime' | 'line'> | string {
  const names = ['open', 'high', 'low', 'close'];
  const values: string[] = [];
  for (let k = 0; k < 4; k++) {
    const v = decimalText(prices[k] as string);
    if (v === null || v.startsWith('-'))
      return `${names[k]} ${JSON.stringify(prices[k])} is not a non-negative number`;
    values.push(v);
  }
  let [open, high, low, close] = values as [string, string, string, string];
  const volume = EMPTY_VALUES.has(volumeText.toLowerCase()) ? '0' : decimalText(volumeText);
  if (volume === null || volume.startsWith('-'))
    return `volume ${JSON.stringify(volumeText)} is not a non-negative number`;
  const [o, h, l, c] = [D(open), D(high), D(low), D(close)];
  // High below low says it all (open and close cannot be between them); else name each price outside.
  const broken = l.gt(h)
    ? [`high ${high} is below low ${low}`]
    : [
        ...(o.gt(h) ? [`open ${open} is above high ${high}`] : []),
        ...(o.lt(l) ? [`open ${open} is below low ${low}`] : []),
        ...(c.gt(h) ? [`close ${close} is above high ${high}`] : []),
        ...(c.lt(l) ? [`close ${close} is below low ${low}`] : []),
      ];
  if (broken.length > 0)
    return `bar ${open}/${high}/${low}/${close} (open/high/low/close) is not consistent: ${broken.join(', ')}`;
  if (adjust && adjCloseText !== undefined && !c.isZero()) {
    const adjClose = decimalText(adjCloseText);
    if (adjClose === null) return `adj close ${JSON.stringify(adjCloseText)} is not a number`;
    const factor = D(adjClose).div(c);
    [open, high, low, close] = [o, h, l, c].map((p) => p.mul(factor).toDecimalPlaces(8).toFixed()) as [
      string,
      string,
      string,
      string,
    ];
  }
  return { open, high, low, close, volume };
}

/**
 * The bars oldest first (a newest-first file is reversed). A row that repeats the bar before it
 * exactly is dropped (and listed); the repeated hour when daylight saving ends, written twice
 * without an offset, is read as its two occurrences; any other bar at the same time, or a time
 * going back, is a problem (`reject` throws, or skips it under --skip-invalid).
 */
function orderBars(
  raw: readonly RawBar[],
  reject: (line: number, reason: string) => void,
  skipped: SkippedRow[],
  zone: string,
): RawBar[] {
  const descending =
    raw.some((r, i) => i > 0 && r.ts < (raw[i - 1] as RawBar).ts) &&
    raw.every((r, i) => i === 0 || r.ts <= (raw[i - 1] as RawBar).ts);
  const ordered = descending ? [...raw].reverse() : raw;
  const kept: RawBar[] = [];
  for (const cur of ordered) {
    const prev = kept[kept.length - 1];
    if (prev === undefined || cur.ts > prev.ts) {
      kept.push(cur);
      continue;
    }
    if (cur.ts === prev.ts && sameValues(cur, prev)) {
      skipped.push({ line: cur.bar.line, reason: `an exact copy of line ${prev.bar.line}` });
      continue;
    }
    // The hour daylight saving repeats: read at the later offset both times, the first is the earlier.
    const earlier = cur.ts === prev.ts ? earlierOccurrence(prev.ts, zone) : undefined;
    const beforePrev = kept[kept.length - 2];
    if (earlier !== undefined && (beforePrev === undefined || earlier > beforePrev.ts)) {
      kept[kept.length - 1] = { ...prev, ts: earlier };
      kept.push(cur);
      continue;
    }
    reject(
      cur.bar.line,
      cur.ts === prev.ts
        ? `duplicate bar time with other prices (same as line ${prev.bar.line})`
        : `bar time goes back in time from line ${prev.bar.line}; sort the file`,
    );
  }
  return kept;
}

function sameValues(a: RawBar, b: RawBar): boolean {
  return (
    a.bar.open === b.bar.open &&
    a.bar.high === b.bar.high &&
    a.bar.low === b.bar.low &&
    a.bar.close === b.bar.close &&
    a.bar.volume === b.bar.volume
  );
}

/** Slack for daily bars in a zone with daylight saving: a day can be 23 hours long. */
const DST_SLACK_MS = 3_600_000;

/**
 * Refuses a bar that starts inside the one before it: bars closer together than the interval
 * (5m data imported as 1h) or a row off the file's grid. Daily bars may be an hour short (DST).
 */
function refuseOverlaps(bars: readonly RawBar[], interval: BarInterval, file: string): void {
  const ms = BAR_INTERVAL_MS[interval];
  const least = ms >= BAR_INTERVAL_MS['1d'] ? ms - DST_SLACK_MS : ms;
  for (let i = 1; i < bars.length; i++) {
    const prev = bars[i - 1] as RawBar;
    const cur = bars[i] as RawBar;
    const gap = cur.ts - prev.ts;
    if (gap < least) {
      throw new CsvImportError(
        file,
        cur.bar.line,
        `bar starts ${gap} ms after the bar on line ${prev.bar.line}, inside that ${interval} bar: the rows are not ${interval} bars (pass the right --interval) or this row is off the file's grid`,
      );
    }
  }
}

/**
 * The bar interval: the most common gap between consecutive bars (the smallest on a tie), which
 * must be one of Keel's intervals. Weekend and holiday gaps in daily or intraday files do not
 * disturb it.
 */
function detectInterval(bars: readonly RawBar[], file: string): BarInterval {
  if (bars.length < 2) {
    throw new CsvImportError(file, 0, 'one bar is not enough to tell the interval; pass --interval');
  }
  const counts = new Map<number, number>();
  for (let i = 1; i < bars.length; i++) {
    const gap = (bars[i] as RawBar).ts - (bars[i - 1] as RawBar).ts;
    counts.set(gap, (counts.get(gap) ?? 0) + 1);
  }
  let best = 0;
  let bestCount = 0;
  for (const [gap, count] of counts) {
    if (count > bestCount || (count === bestCount && gap < best)) {
      best = gap;
      bestCount = count;
    }
  }
  const interval = (Object.keys(BAR_INTERVAL_MS) as BarInterval[]).find((k) => BAR_INTERVAL_MS[k] === best);
  if (interval === undefined) {
    throw new CsvImportError(
      file,
      0,
      `bars are mostly ${best} ms apart, which is none of Keel's intervals (${Object.keys(BAR_INTERVAL_MS).join(', ')}); pass --interval`,
    );
  }
  return interval;
}
