import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvField } from '../../../backtest/report/index.ts';
import { sweepTable } from '../../../config/cli/sweep-table.ts';
import { sweepMetricNames } from '../../../config/sweep/sweep-metrics.ts';
import type { SweepRow } from '../../../config/sweep/sweep-task.ts';
import { quietSweepRow } from '../../kit/sweep-rows.ts';

const FAST = 'strategies.0.params.fast';

/** The CSV text of each row's cells, as `keel sweep --out` writes them. */
function csvText(table: ReturnType<typeof sweepTable>): string[][] {
  return table.csv.map((cells) => cells.map(csvField));
}

/** The CSV text of each row's cells in these columns, by name. */
function csvColumns(table: ReturnType<typeof sweepTable>, names: readonly string[]): string[][] {
  const at = names.map((name) => table.csvHeader.indexOf(name));
  return csvText(table).map((cells) => at.map((i) => cells[i] ?? 'missing'));
}

function row(fast: number, totalReturn: number | null, more: Partial<SweepRow> = {}): SweepRow {
  return quietSweepRow([`${FAST}=${fast}`], {
    metrics: { totalReturn, sharpe: null, maxDrawdown: 0, tradeCount: 2, winRate: 0.5 },
    fills: 4,
    ...more,
  });
}

/** Rows with a denial, a liquidation, a warning, a fault and a failed backtest between them. */
function busyRows(): SweepRow[] {
  return [
    row(3, 0, { denied: 4, denial: '4 intents denied (risk maxPosition 4); the first: ...' }),
    row(5, 0.1, { liquidations: 1, warnings: ['no 5m bars'], faults: ['strategy s: onBar threw'] }),
    { ...row(8, null), metrics: {}, error: 'the replay window starts after the data' },
  ];
}

describe('the table of a sweep', () => {
  it('holds every metric at full precision in the CSV, as a plain decimal, and 4 decimals on the terminal', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        const table = sweepTable([row(3, value)], [FAST], 'totalReturn');
        const text = csvColumns(table, ['totalReturn'])[0]?.[0] ?? '';
        // Reads back as the same number (-0 is written 0, equal to it), never in exponent form.
        expect(Number(text) === value && !/e/i.test(text), text).toBe(true);
        expect(table.shown[0]?.[1]).toBe(Number.isInteger(value) ? String(value) : value.toFixed(4));
      }),
    );
    const table = sweepTable([row(3, -0.000123456789), row(5, -1.497e-7)], [FAST], 'totalReturn');
    expect(csvColumns(table, [FAST, 'totalReturn', 'sharpe'])).toEqual([
      ['3', '-0.000123456789', ''],
      ['5', '-0.0000001497', ''],
    ]);
    expect(table.shown[0]?.slice(0, 3)).toEqual(['3', '-0.0001', 'n/a']);
  });

  it('adds denied, liquidations and warnings columns when a row has one, before faults and failed', () => {
    const plain = sweepTable([row(3, 0.1)], [FAST], 'totalReturn');
    expect(plain.header.at(-1)).toBe('fills');
    const table = sweepTable(busyRows(), [FAST], 'totalReturn');
    expect(table.header.slice(-6)).toEqual([
      'fills',
      'denied',
      'liquidations',
      'warnings',
      'faults',
      'failed',
    ]);
    expect(csvColumns(table, ['fills', 'denied', 'liquidations', 'warnings', 'faults', 'failed'])).toEqual([
      ['4', '4', '0', '0', '0', ''],
      ['4', '0', '1', '1', '1', ''],
      ['', '', '', '', '0', 'yes'],
    ]);
    expect(table.shown[2]?.slice(-6)).toEqual(['n/a', 'n/a', 'n/a', 'n/a', '0', 'yes']);
  });

  it('says why a metric is n/a in a footnote under the table, one per reason, its mark in each n/a cell', () => {
    const short = 'not annualized: the run is shorter than a day';
    const table = sweepTable(
      [
        row(3, 0.1, { notDefined: { sharpe: short } }),
        row(5, 0, {
          metrics: { totalReturn: 0, sharpe: null, maxDrawdown: 0, tradeCount: 0, winRate: null },
          notDefined: { sharpe: short, winRate: 'no closed trades' },
        }),
        { ...row(8, null), metrics: {}, error: 'the replay window starts after the data' },
      ],
      [FAST],
      'totalReturn',
    );
    expect(table.header.slice(1, 6)).toEqual([
      'totalReturn',
      'sharpe',
      'maxDrawdown',
      'tradeCount',
      'winRate',
    ]);
    expect(table.shown.map((cells) => cells.slice(1, 6))).toEqual([
      ['0.1000', 'n/a[1]', '0', '2', '0.5000'],
      ['0', 'n/a[1]', '0', '0', 'n/a[2]'],
      // A failed backtest's metrics are unknown: its failed column and the line under the table say why.
      ['n/a', 'n/a', 'n/a', 'n/a', 'n/a'],
    ]);
    expect(table.footnotes).toEqual([`[1] ${short} (sharpe)`, '[2] no closed trades (winRate)']);
    // The CSV keeps a missing value empty.
    expect(csvColumns(table, ['totalReturn', 'sharpe', 'maxDrawdown', 'tradeCount', 'winRate'])[1]).toEqual([
      '0',
      '',
      '0',
      '0',
      '',
    ]);
  });

  it('gives one footnote to a reason shared by several columns, naming each', () => {
    const short = 'not annualized: the run is shorter than a day';
    const table = sweepTable(
      [
        row(3, 0.1, {
          notDefined: { sharpe: short, sortino: short },
          metrics: { totalReturn: 0.1, sharpe: null, sortino: null },
        }),
      ],
      [FAST],
      'sortino',
    );
    expect(table.header.slice(1, 3)).toEqual(['sortino', 'totalReturn']);
    expect(table.shown[0]?.slice(1, 4)).toEqual(['n/a[1]', '0.1000', 'n/a[1]']);
    expect(table.footnotes).toEqual([`[1] ${short} (sortino, sharpe)`]);
  });
});

describe('the CSV of a sweep', () => {
  it('has the same columns whatever the metric and whichever rows need the optional ones', () => {
    const plain = sweepTable([row(3, 0.1)], [FAST], 'totalReturn');
    const busy = sweepTable(busyRows(), [FAST], 'sharpe');
    const expected = [
      FAST,
      ...sweepMetricNames(),
      'fills',
      'denied',
      'liquidations',
      'warnings',
      'faults',
      'failed',
      'error',
    ];
    expect(plain.csvHeader).toEqual(expected);
    expect(busy.csvHeader).toEqual(expected);
    expect(busy.csv.every((cells) => cells.length === expected.length)).toBe(true);
    const column = (name: string) => busy.csv.map((cells) => csvField(cells[expected.indexOf(name)]));
    expect(column('totalReturn')).toEqual(['0', '0.1', '']);
    expect(column('error')).toEqual([
      '',
      'strategy s: onBar threw',
      'the replay window starts after the data',
    ]);
    expect(column('failed')).toEqual(['', '', 'yes']);
    expect(column('denied')).toEqual(['4', '0', '']);
    // The terminal's table keeps its own layout: the sorting metric first, the optional columns when needed.
    expect(busy.header.slice(1, 3)).toEqual(['sharpe', 'totalReturn']);
    expect(plain.header.at(-1)).toBe('fills');
  });
});
