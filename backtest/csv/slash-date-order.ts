import { CsvImportError } from './csv-import-error.ts';

/** Which field of a `a/b/yyyy` date is the day. */
export type SlashDateOrder = 'day-first' | 'month-first';

/** A time text of a CSV row, with its line, as the importer reads it. */
export interface TimeText {
  readonly text: string;
  readonly line: number;
}

const SLASH_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:[ T](\d{1,2}:\d{2}(:\d{2})?))?$/;
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * Decides whether a file's `a/b/yyyy` dates are day-first (`31/12/2024`, Europe) or month-first
 * (`12/31/2024`, US) from the file itself: a first field above 12 makes every date day-first, a
 * second field above 12 month-first. A file whose slash dates all fit both readings cannot be
 * read without being told: reading it US-first silently put 5 March on May 3. Dates whose day
 * and month are equal read alike either way and decide nothing.
 * @param times - the time text of every row (date and time of day joined by a space)
 * @param file - the file, for the error
 * @returns the order, or undefined when the file writes no slash dates
 * @throws CsvImportError quoting a date that reads differently each way, with its line and the
 *   `--time-format` to pass for each reading, when the dates fit both readings, or when one row is only day-first and another only month-first
 */
export function slashDateOrder(times: Iterable<TimeText>, file: string): SlashDateOrder | undefined {
  let slashDates = false;
  // The date the error quotes: one that reads differently day-first and month-first.
  let ambiguous:
    | { readonly text: string; readonly line: number; readonly match: RegExpExecArray }
    | undefined;
  let dayFirst: TimeText | undefined;
  let monthFirst: TimeText | undefined;
  for (const time of times) {
    const match = SLASH_DATE.exec(time.text);
    if (match === null) continue;
    const [a, b] = [Number(match[1]), Number(match[2])];
    // 0/5/2024 or 13/13/2024 is no date either way: the row is refused as a time Keel cannot read.
    if (a === 0 || b === 0 || (a > 12 && b > 12)) continue;
    slashDates = true;
    if (a !== b) ambiguous ??= { ...time, match };
    if (a > 12) dayFirst ??= time;
    if (b > 12) monthFirst ??= time;
  }
  if (!slashDates) return undefined;
  if (dayFirst !== undefined && monthFirst !== undefined) {
    throw new CsvImportError(
      file,
      dayFirst.line,
      `date "${dayFirst.text}" is day-first, but "${monthFirst.text}" on line ${monthFirst.line} is month-first: the file mixes both; pass its layout with --time-format`,
    );
  }
  if (dayFirst !== undefined) return 'day-first';
  if (monthFirst !== undefined) return 'month-first';
  // Every date has its day equal to its month (01/01/2024): either order reads them alike.
  if (ambiguous === undefined) return 'day-first';
  const [, a, b, year] = ambiguous.match;
  const clock =
    ambiguous.match[4] === undefined ? '' : ambiguous.match[5] === undefined ? ' H:mm' : ' H:mm:ss';
  const reading = (day: string | undefined, month: string | undefined) =>
    `${Number(day)} ${MONTHS[Number(month) - 1]} ${year}`;
  throw new CsvImportError(
    file,
    ambiguous.line,
    `date "${ambiguous.text}" reads as ${reading(a, b)} (day first: --time-format "d/M/yyyy${clock}") or as ${reading(b, a)} (month first: --time-format "M/d/yyyy${clock}"), and no date in the file has a day above 12 to tell which: pass --time-format`,
  );
}
