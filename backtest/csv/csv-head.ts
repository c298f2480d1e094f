import { detectDelimiter, splitCsvLine } from './csv-fields.ts';
import { CsvImportError } from './csv-import-error.ts';
import type { CsvLines } from './csv-lines.ts';
import { NUMBER_STYLE_ROWS } from './csv-numbers.ts';
import type { SkippedRow } from './ohlcv-bar.ts';

/** The start of a CSV: what its layout, separator and number style are read from. */
export interface CsvHead {
  /** The file's first lines: up to {@link NUMBER_STYLE_ROWS} after its first row, or all of them. */
  readonly lines: readonly string[];
  /** Index of the first row (the header or first bar), after a title line. */
  readonly firstIndex: number;
  /** The title line left out, if any. */
  readonly title: SkippedRow | undefined;
}

/**
 * Reads the start of a CSV: its first non-empty line, or the one after when it is a title or URL
 * line (CryptoDataDownload's first line is its address): a line of one field, whatever the
 * separator, followed by one of several fields.
 * @param lines - the CSV's lines
 * @param file - the file, for the error
 * @returns the first lines and where the first row is
 * @throws CsvImportError when the file holds no non-empty line
 */
export function csvHead(lines: CsvLines, file: string): CsvHead {
  const head: string[] = [];
  let first = -1;
  let next = -1;
  for (const line of lines.forward()) {
    head.push(line);
    const i = head.length - 1;
    if (line.trim() !== '') {
      if (first === -1) first = i;
      else if (next === -1) next = i;
    }
    if (next !== -1 && i > next + NUMBER_STYLE_ROWS) break;
  }
  if (first === -1) throw new CsvImportError(file, 0, 'the file is empty');
  const fieldCount = (line: string): number => splitCsvLine(line, detectDelimiter(line)).length;
  if (fieldCount(head[first] as string) > 1 || next === -1 || fieldCount(head[next] as string) <= 1)
    return { lines: head, firstIndex: first, title: undefined };
  return {
    lines: head,
    firstIndex: next,
    title: {
      line: first + 1,
      reason: `one field, no row of bars: a title or URL line before the header (${JSON.stringify((head[first] as string).trim())})`,
    },
  };
}
