import { closeSync, openSync, readSync } from 'node:fs';
import { detectDelimiter, splitCsvLine } from '../../backtest/csv/index.ts';

/** How much of a file is read to see its first line. */
const FIRST_BYTES = 4096;

/** The fewest fields of an OHLCV CSV's line: a time, open, high, low and close. */
const OHLCV_FIELDS = 5;

/**
 * Whether a file that is no Keel recording looks like an OHLCV CSV, so a message can say how to
 * replay it: its name ends in `.csv`, or its first line is no JSON object but splits into at least
 * five fields on a comma, semicolon, tab or bar (a `.txt` export of MetaTrader, a header-less file).
 * A gzip file is judged by its name alone.
 * @param file - the file's path (it exists)
 * @returns true when it looks like CSV
 */
export function looksLikeCsv(file: string): boolean {
  if (/\.csv$/i.test(file)) return true;
  const bytes = Buffer.alloc(FIRST_BYTES);
  const fd = openSync(file, 'r');
  let read: number;
  try {
    read = readSync(fd, bytes, 0, FIRST_BYTES, 0);
  } finally {
    closeSync(fd);
  }
  if (read >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) return false;
  const line = (bytes.toString('utf8', 0, read).split(/\r?\n/, 1)[0] ?? '').replace(/^\uFEFF/, '').trim();
  if (line.startsWith('{')) return false;
  return splitCsvLine(line, detectDelimiter(line)).length >= OHLCV_FIELDS;
}
