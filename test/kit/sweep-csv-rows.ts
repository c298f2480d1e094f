import { readFileSync } from 'node:fs';

/** A CSV line's cells: a quoted cell may hold commas and doubled quotes (`""`). */
function cellsOf(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  cells.push(cell);
  return cells;
}

/**
 * A `keel sweep --out` CSV's rows after its header, each keyed by the header's names (the
 * columns are read by name: their order is the sweep's business).
 * @param file - the CSV
 * @returns the header's names and the rows
 */
export function sweepCsvRows(file: string): {
  readonly header: string[];
  readonly rows: Record<string, string>[];
} {
  const [headerLine = '', ...lines] = readFileSync(file, 'utf8').trim().split('\n');
  const header = cellsOf(headerLine);
  const rows = lines.map((line) => {
    const cells = cellsOf(line);
    return Object.fromEntries(header.map((name, i) => [name, cells[i] ?? '']));
  });
  return { header, rows };
}
