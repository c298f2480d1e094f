import type { CsvCell } from '../../backtest/report/index.ts';
import { sweepMetricNames } from '../sweep/sweep-metrics.ts';
import type { SweepRow } from '../sweep/sweep-task.ts';

/** A sweep's result table: for the terminal, a header and one line per row; for the CSV, the same. */
export interface SweepTable {
  /** The terminal's columns: the axes, the sorting metric then the usual ones, fills, the optional ones a row needs. */
  readonly header: readonly string[];
  /** The rows as the terminal shows them: non-integers to 4 decimals. */
  readonly shown: readonly (readonly string[])[];
  /** The CSV's columns, the same in every sweep over these axes: see {@link CSV_TAIL}. */
  readonly csvHeader: readonly string[];
  /**
   * The rows as the CSV holds them, under {@link csvHeader}: every number at full precision
   * (written as a plain decimal by `csvField`, as in the result CSVs), a missing value empty.
   */
  readonly csv: readonly (readonly CsvCell[])[];
  /**
   * Why the metrics shown n/a are not defined, one line per reason, numbered as the marks in their
   * cells: `[1] not annualized: the run is shorter than a day (sharpe, sortino)`.
   */
  readonly footnotes: readonly string[];
}

/**
 * The CSV's columns after the axes and every metric (in `sweepMetricNames` order): each run's
 * counts, then whether its backtest failed and why (or its strategy's first fault).
 */
export const CSV_TAIL = ['fills', 'denied', 'liquidations', 'warnings', 'faults', 'failed', 'error'] as const;

/** The metrics every table shows after the sorting one. */
const SHOWN = ['totalReturn', 'sharpe', 'maxDrawdown', 'tradeCount', 'winRate'];

/**
 * A grid axis's value in a combination.
 * @param combination - the combination's `--set` arguments
 * @param path - the axis's path, in `--set` form
 * @returns the value as typed, '' when the combination does not set the path
 */
export function axisValue(combination: readonly string[], path: string): string {
  const set = combination.find((s) => s.startsWith(`${path}=`));
  return set === undefined ? '' : set.slice(path.length + 1);
}

function shownCell(value: number | null | undefined): string {
  if (value === null || value === undefined) return 'n/a';
  return Number.isInteger(value) ? String(value) : value.toFixed(4);
}

/**
 * Numbers each reason a shown metric is not defined, in column order then row order, so an n/a
 * cell carries a short mark (`n/a[1]`) and the reason is written once under the table.
 */
class Footnotes {
  private readonly byReason = new Map<string, { n: number; metrics: string[] }>();

  /**
   * @param metric - the cell's column
   * @param reason - why the metric is not defined for the cell's row
   * @returns the reason's mark, e.g. `[1]`
   */
  mark(metric: string, reason: string): string {
    let note = this.byReason.get(reason);
    if (note === undefined) {
      note = { n: this.byReason.size + 1, metrics: [] };
      this.byReason.set(reason, note);
    }
    if (!note.metrics.includes(metric)) note.metrics.push(metric);
    return `[${note.n}]`;
  }

  /** @returns one line per reason, in mark order */
  lines(): string[] {
    return [...this.byReason].map(([reason, { n, metrics }]) => `[${n}] ${reason} (${metrics.join(', ')})`);
  }
}

/**
 * The table of a sweep's rows. The terminal's: the axes' values, the sorting metric then the usual
 * ones, fills, and the columns only some sweeps need: `denied` (intents the risk gate, kernel or
 * venue denied), `liquidations`, `warnings`, `faults` (strategy faults) and `failed`, each when a
 * row has one. The CSV's has the same columns in every sweep over the axes (so files of several
 * sweeps line up): the axes, every metric, then {@link CSV_TAIL}.
 * A metric not defined for a row shows `n/a` with the mark of a footnote saying why (as a single
 * run's report says it); a failed backtest's cells stay a bare `n/a` (its `failed` column and the
 * line under the table say why).
 * @param rows - the rows, in the order to show
 * @param paths - the axes' paths, in `--set` form
 * @param metric - the metric the rows are sorted by
 * @returns the header, the rows for the terminal and for the CSV, and the footnotes
 */
export function sweepTable(rows: readonly SweepRow[], paths: readonly string[], metric: string): SweepTable {
  const metrics = [metric, ...SHOWN.filter((m) => m !== metric)];
  // A count of a backtest that failed is unknown: undefined, shown n/a and written empty.
  const ran = (row: SweepRow, count: number) => (row.error === undefined ? count : undefined);
  const extra: { name: string; cell: (row: SweepRow) => number | string | undefined; needed: boolean }[] = [
    { name: 'denied', cell: (row) => ran(row, row.denied), needed: rows.some((row) => row.denied > 0) },
    {
      name: 'liquidations',
      cell: (row) => ran(row, row.liquidations),
      needed: rows.some((row) => row.liquidations > 0),
    },
    {
      name: 'warnings',
      cell: (row) => ran(row, row.warnings.length),
      needed: rows.some((row) => row.warnings.length > 0),
    },
    {
      name: 'faults',
      cell: (row) => row.faults.length,
      needed: rows.some((row) => row.faults.length > 0),
    },
    {
      name: 'failed',
      cell: (row) => (row.error === undefined ? '' : 'yes'),
      needed: rows.some((row) => row.error !== undefined),
    },
  ];
  const columns = extra.filter((column) => column.needed);
  const cells = (row: SweepRow): (number | string | null | undefined)[] => [
    ...paths.map((path) => axisValue(row.combination, path)),
    ...metrics.map((m) => row.metrics[m]),
    ran(row, row.fills),
    ...columns.map((column) => column.cell(row)),
  ];
  const footnotes = new Footnotes();
  const marks = rows.map((row) =>
    metrics.map((m) => {
      const reason = row.metrics[m] === null ? row.notDefined?.[m] : undefined;
      return reason === undefined ? '' : footnotes.mark(m, reason);
    }),
  );
  const first = paths.length;
  const shown = rows.map((row, r) =>
    cells(row).map((cell, i) => {
      const text = typeof cell === 'string' ? cell : shownCell(cell);
      return i >= first && i < first + metrics.length ? `${text}${marks[r]?.[i - first] ?? ''}` : text;
    }),
  );
  const names = sweepMetricNames();
  const csvCells = (row: SweepRow): CsvCell[] => [
    ...paths.map((path) => axisValue(row.combination, path)),
    ...names.map((m) => row.metrics[m]),
    ran(row, row.fills),
    ...extra.map((column) => column.cell(row)),
    row.error ?? row.faults[0] ?? '',
  ];
  return {
    header: [...paths, ...metrics, 'fills', ...columns.map((column) => column.name)],
    shown,
    csvHeader: [...paths, ...names, ...CSV_TAIL],
    csv: rows.map(csvCells),
    footnotes: footnotes.lines(),
  };
}
