import { D } from '../../core/model/index.ts';
import { splitCsvLine } from './csv-fields.ts';

const PLAIN_DECIMAL = /^\d+(\.\d+)?$/;

/** Cell texts that mean "no value" (lower case): Yahoo's `null` holidays, spreadsheet `n/a`, `-`. */
export const EMPTY_VALUES: ReadonlySet<string> = new Set(['', 'null', 'nan', 'na', 'n/a', '-']);

const DECIMAL_COMMA_NUMBER = /^[-+]?\d[\d.]*,\d+$/;
const GROUPED_NUMBER = /^[-+]?\d{1,3}(\.\d{3})*(,\d+)?$/;
/** A decimal-comma number written without grouping dots: `1234,25`, `95000,25`. */
const UNGROUPED_COMMA_NUMBER = /^[-+]?\d+(,\d+)?$/;
/** Cells only a decimal-point file writes: `1,234.5`, `1,234,567`, `189.5`, `0.1234`, `0.125` (not `1.234`). */
const DECIMAL_POINT_CELLS = [
  /^[-+$]?[1-9]\d{0,2}(,\d{3})+\.\d+[KMB]?$/,
  /^[-+$]?[1-9]\d{0,2}(,\d{3}){2,}[KMB]?$/,
  /^[-+$]?\d+\.(\d{1,2}|\d{4,})[KMB]?$/,
  /^[-+$]?0\.\d+[KMB]?$/,
];
/** Cells only a decimal-comma file writes: `1,5`, `0,125`, `1,2345`, `1.234,5`. */
const DECIMAL_COMMA_CELLS = [/^[-+]?\d+,(\d{1,2}|\d{4,})$/, /^[-+]?0,\d+$/, /^[-+]?\d{1,3}(\.\d{3})+,\d+$/];
/** `151.234`: 151.234 with a decimal point, 151234 with a decimal comma. */
const POINT_OR_GROUPED = /^[-+]?[1-9]\d{0,2}\.\d{3}$/;

/** How many rows after the first (the header or first bar) {@link numberStyleOf} looks at. */
export const NUMBER_STYLE_ROWS = 1000;

/** The decimal mark a file writes, when the user says it: `point` (`1,234.5`) or `comma` (`1.234,5`). */
export type DecimalMark = 'point' | 'comma';

/** How a file writes its numbers: which mark is decimal, and whether commas group thousands. */
export interface NumberStyle {
  /** A comma is the decimal mark and a dot only groups thousands (European exports: `1,5`, `1.234,56`). */
  readonly decimalComma: boolean;
  /** A point is the decimal mark and a comma groups thousands (US-locale exports: `"1,234.50"`). */
  readonly commaGrouping: boolean;
}

/** A cell's text and its 1-based line. */
export interface CellAt {
  readonly text: string;
  readonly line: number;
}

/**
 * Cells of a file that read two ways and no cell deciding: `151.234` (a point, or a grouping dot)
 * and `1,234` (a grouping comma, or a decimal comma).
 */
export interface TwoWayNumbers {
  readonly point: CellAt;
  readonly comma: CellAt;
}

/**
 * How a file writes its numbers, seen in the fields after the first of its first thousand rows
 * (and of its first row, when it is no header).
 * A cell only one style writes decides (`1,5`, `0,125` or `1.234,5`: decimal comma; `189.50`,
 * `0.125` or `1,234.50`: decimal point). `12,345` alone could be either: a file not separated by
 * commas is then read with a decimal comma, as European exports write it, unless it also writes
 * `151.234` (a price with three decimals, or a thousand grouped with a dot): that file reads two
 * ways, which the caller refuses. A comma-separated one is not read either way (such numbers are
 * refused, not read 1000 times too large or small). A decimal mark given decides alone.
 * @param lines - the file's lines, at least {@link NUMBER_STYLE_ROWS} after the first row (or all)
 * @param firstIndex - index of the first non-empty line (the header or first row)
 * @param delimiter - the file's separator
 * @param mark - the decimal mark the user gave, if any
 * @param hasHeader - whether the first line is a header (else it is looked at too)
 * @returns the file's style, or a cell of each kind when it reads two ways
 */
export function numberStyleOf(
  lines: readonly string[],
  firstIndex: number,
  delimiter: string,
  mark: DecimalMark | undefined,
  hasHeader: boolean,
): NumberStyle | TwoWayNumbers {
  if (mark !== undefined) return { decimalComma: mark === 'comma', commaGrouping: mark === 'point' };
  const end = Math.min(lines.length, firstIndex + 1 + NUMBER_STYLE_ROWS);
  let point = false;
  let ambiguousComma: CellAt | undefined;
  let ambiguousPoint: CellAt | undefined;
  for (let i = hasHeader ? firstIndex + 1 : firstIndex; i < end; i++) {
    for (const field of splitCsvLine(lines[i] as string, delimiter).slice(1)) {
      if (DECIMAL_COMMA_CELLS.some((pattern) => pattern.test(field)))
        return { decimalComma: delimiter !== ',', commaGrouping: false };
      point ||= DECIMAL_POINT_CELLS.some((pattern) => pattern.test(field));
      if (ambiguousComma === undefined && DECIMAL_COMMA_NUMBER.test(field))
        ambiguousComma = { text: field, line: i + 1 };
      if (ambiguousPoint === undefined && POINT_OR_GROUPED.test(field))
        ambiguousPoint = { text: field, line: i + 1 };
    }
  }
  if (point) return { decimalComma: false, commaGrouping: true };
  if (delimiter !== ',' && ambiguousComma !== undefined && ambiguousPoint !== undefined)
    return { point: ambiguousPoint, comma: ambiguousComma };
  return { decimalComma: delimiter !== ',' && ambiguousComma !== undefined, commaGrouping: false };
}

/**
 * In a decimal-comma file, `1,5`, `1.234,56` and `1234,56` as `1.5`, `1234.56` and `1234.56`;
 * other text (`12.34,5`, grouping dots out of place) as it is.
 * @param text - a cell's text
 * @returns the text with a decimal point
 */
export function pointDecimal(text: string): string {
  return GROUPED_NUMBER.test(text) || UNGROUPED_COMMA_NUMBER.test(text)
    ? text.replace(/\./g, '').replace(',', '.')
    : text;
}

const COMMA_GROUPED_NUMBER = /^[-+$]?[1-9]\d{0,2}(,\d{3})+(\.\d+)?[KMB]?$/;

/**
 * In a file whose commas group thousands ({@link numberStyleOf}), `1,234.50` and `12,345` as
 * `1234.50` and `12345`. Other text as it is.
 * @param text - a cell's text
 * @returns the text without its grouping commas
 */
export function ungroupedDecimal(text: string): string {
  return COMMA_GROUPED_NUMBER.test(text) ? text.replace(/,/g, '') : text;
}

/**
 * The largest |exponent| an exponent cell may have: `1e30` is already beyond any price or
 * volume, and a larger one (`1e400`, `1e999999999`) would be written out as that many digits.
 */
export const MAX_CELL_EXPONENT = 30;

const SIGNED_NUMBER = /^-?(\d+\.?\d*|\.\d+)(?:[eE]([-+]?\d+))?$/;

/**
 * A number's text as a plain decimal string (a leading `+` or `$` dropped, as Nasdaq.com writes
 * prices: `$340.71`; exponents written out, up to {@link MAX_CELL_EXPONENT} either way).
 * @param text - a cell's text
 * @returns the plain decimal, or null when the text is not a number or its exponent is absurd
 */
export function decimalText(text: string): string | null {
  const t = text.startsWith('+') || text.startsWith('$') ? text.slice(1) : text;
  if (PLAIN_DECIMAL.test(t)) return t;
  const match = SIGNED_NUMBER.exec(t);
  if (match === null) return null;
  const exponent = match[2];
  // Compared as text first, so an exponent of a billion digits is never made a number.
  if (
    exponent !== undefined &&
    (exponent.replace(/^[-+]?0*/, '').length > 2 || Math.abs(Number(exponent)) > MAX_CELL_EXPONENT)
  )
    return null;
  return new D(t).toFixed();
}

/** Investing.com's volume suffixes: thousands, millions, billions. */
const VOLUME_SUFFIXES: Readonly<Record<string, string>> = { K: '1000', M: '1000000', B: '1000000000' };

/**
 * A volume's text as a plain decimal string, Investing.com's `45.6K`, `1.23M` and `2.1B` scaled
 * exactly (in decimal) to 45600, 1230000 and 2100000000.
 * @param text - a volume cell's text
 * @returns the plain decimal, or null when the text is not a number
 */
export function volumeDecimalText(text: string): string | null {
  const scale = VOLUME_SUFFIXES[text.slice(-1)];
  if (scale === undefined) return decimalText(text);
  const mantissa = decimalText(text.slice(0, -1));
  return mantissa === null ? null : new D(mantissa).mul(scale).toFixed();
}
