import type { CsvLines } from './csv-lines.ts';

/** A non-empty row of a CSV: its text, trimmed, and its 1-based line. */
export interface CsvRow {
  readonly text: string;
  readonly line: number;
}

/**
 * The non-empty rows from a line on, first to last.
 * @param lines - the CSV's lines
 * @param firstRow - index (0-based) of the first line read
 * @param count - receives the number of lines in the file, once all are read
 * @returns the rows
 */
export function* forwardRows(
  lines: CsvLines,
  firstRow: number,
  count?: (lines: number) => void,
): Generator<CsvRow> {
  let i = 0;
  for (const line of lines.forward()) {
    if (i >= firstRow) {
      const text = line.trim();
      if (text !== '') yield { text, line: i + 1 };
    }
    i++;
  }
  count?.(i);
}

/**
 * The non-empty rows from a line on, last to first.
 * @param lines - the CSV's lines
 * @param firstRow - index (0-based) of the last line read
 * @param lineCount - the number of lines in the file
 * @returns the rows
 */
export function* backwardRows(lines: CsvLines, firstRow: number, lineCount: number): Generator<CsvRow> {
  let i = lineCount - 1;
  for (const line of lines.backward()) {
    if (i < firstRow) return;
    const text = line.trim();
    if (text !== '') yield { text, line: i + 1 };
    i--;
  }
}
