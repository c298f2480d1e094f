import { DateTime } from 'luxon';
import type { SlashDateOrder } from './slash-date-order.ts';

/** Unit of numeric timestamps; `auto` decides by magnitude. */
export type EpochUnit = 'auto' | 's' | 'ms' | 'us' | 'ns';

/** How the importer reads times. */
export interface TimeParsing {
  /** IANA zone for times written without an offset (e.g. `America/New_York`); default UTC. */
  readonly zone: string;
  /** Unit of numeric timestamps. */
  readonly epochUnit: EpochUnit;
  /** A luxon format (e.g. `dd/MM/yyyy HH:mm`) for date strings the defaults do not cover. */
  readonly format?: string;
  /**
   * How `a/b/yyyy` dates are read: day first or month first. The CSV importer decides it from
   * the whole file (`slashDateOrder`); month first when absent.
   */
  readonly slashOrder?: SlashDateOrder;
}

/**
 * Date-time layouts tried, in order, after ISO 8601 and SQL forms: year-first forms, and dotted
 * dates day-first (`31.12.2024`, as every locale writing them does).
 */
const FALLBACK_FORMATS = [
  'yyyy.MM.dd HH:mm:ss',
  'yyyy.MM.dd HH:mm',
  'yyyy.MM.dd',
  'yyyy/MM/dd HH:mm:ss',
  'yyyy/MM/dd HH:mm',
  'yyyy/MM/dd',
  'yyyyMMdd HHmmss',
  'yyyyMMdd HH:mm:ss',
  'yyyyMMdd HH:mm',
  'yyyyMMdd',
  'd.M.yyyy H:mm:ss',
  'd.M.yyyy H:mm',
  'd.M.yyyy',
] as const;

/** The fallback layouts, then those of `a/b/yyyy` dates in the order the file uses. */
const FORMATS_BY_SLASH_ORDER: Readonly<Record<SlashDateOrder, readonly string[]>> = {
  'day-first': [...FALLBACK_FORMATS, 'd/M/yyyy H:mm:ss', 'd/M/yyyy H:mm', 'd/M/yyyy'],
  'month-first': [...FALLBACK_FORMATS, 'M/d/yyyy H:mm:ss', 'M/d/yyyy H:mm', 'M/d/yyyy'],
};

const EPOCH = /^\d+(\.\d+)?$/;

/**
 * Converts a numeric timestamp to epoch milliseconds. `auto` reads the magnitude: below 1e11
 * seconds (until year 5138), below 1e14 milliseconds, below 1e17 microseconds, else nanoseconds.
 * @param value - the number
 * @param unit - its unit, or auto
 * @returns epoch milliseconds (rounded down to whole ms)
 */
export function epochToMs(value: number, unit: EpochUnit): number {
  const resolved =
    unit !== 'auto' ? unit : value < 1e11 ? 's' : value < 1e14 ? 'ms' : value < 1e17 ? 'us' : 'ns';
  const factor = { s: 1000, ms: 1, us: 1e-3, ns: 1e-6 }[resolved];
  return Math.floor(value * factor);
}

/**
 * Parses a bar time: epoch numbers, ISO 8601 (`2024-01-02T09:30:00Z`, `2024-01-02`), SQL
 * (`2024-01-02 09:30:00`), or the fallback layouts (slash dates in `parsing.slashOrder`). Times without an offset are read in
 * `parsing.zone`; an explicit offset wins.
 * @param text - the time text (date and time joined by a space for two-column files)
 * @param parsing - zone, epoch unit, optional format
 * @returns epoch milliseconds, or null when the text is no time this parser knows
 */
export function parseBarTime(text: string, parsing: TimeParsing): number | null {
  const time = readBarTime(text, parsing);
  return time === null || typeof time === 'number' ? time : time.toMillis();
}

/**
 * Reads a bar time as {@link parseBarTime} does, keeping a date-time text's reading.
 * @param text - the time text
 * @param parsing - zone, epoch unit, optional format
 * @param zone - the zone times without an offset are read in (`parsing.zone` unless given)
 * @returns epoch milliseconds for an epoch number, the date-time for a date-time text (in `zone`,
 *   or in its own offset's instant), or null when the text is no time this parser knows
 */
export function readBarTime(
  text: string,
  parsing: TimeParsing,
  zone = parsing.zone,
): number | DateTime | null {
  if (
    EPOCH.test(text) &&
    !(text.length === 8 && parsing.format === undefined && /^(19|20)\d{6}$/.test(text))
  ) {
    return epochToMs(Number(text), parsing.epochUnit);
  }
  const options = { zone };
  if (parsing.format !== undefined) return valid(DateTime.fromFormat(text, parsing.format, options));
  const iso = DateTime.fromISO(text, options);
  if (iso.isValid) return iso;
  const sql = DateTime.fromSQL(text, options);
  if (sql.isValid) return sql;
  for (const format of FORMATS_BY_SLASH_ORDER[parsing.slashOrder ?? 'month-first']) {
    const t = DateTime.fromFormat(text, format, options);
    if (t.isValid) return t;
  }
  return null;
}

function valid(t: DateTime): DateTime | null {
  return t.isValid ? t : null;
}
