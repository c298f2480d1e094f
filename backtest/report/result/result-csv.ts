import { D, type Dec, decimalOf } from '../../../core/model/index.ts';
import { drawdownSeries } from '../metrics/drawdown.ts';
import type { SymBreakdown, SymFigures } from '../metrics/sym-breakdown.ts';
import type { BacktestResult } from './backtest-result.ts';

type Cell = string | number | boolean | Dec | null | undefined;

/**
 * A number as a plain decimal: the digits of its shortest text, without the exponent form JavaScript
 * uses below 1e-6 and from 1e21 (`4e-7`), which some readers take for text.
 */
function plainNumber(value: number): string {
  const text = String(value);
  return Number.isFinite(value) && text.includes('e') ? D(text).toFixed() : text;
}

/** A text a spreadsheet would run as a formula: it starts with = + - @, a tab or a carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A number written as text (a decimal's digits): left as it is, so it stays a number. */
const NUMBER_TEXT = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/**
 * Quotes a CSV field when it holds a comma, a quote or a line break (RFC 4180). A text cell a
 * spreadsheet would run as a formula (starting with = + - @, a tab or a carriage return, and not
 * a number: a strategy's ref, a venue's reason) gets a leading `'`, as OWASP advises, so Excel
 * and LibreOffice show it as text.
 * @param cell - the value; Decimals are written exactly, numbers as plain decimals, null and
 *   undefined as empty
 * @returns the field text
 */
export function csvField(cell: Cell): string {
  if (cell === null || cell === undefined) return '';
  let text: string;
  if (typeof cell === 'object') text = cell.toFixed();
  else if (typeof cell === 'number') text = plainNumber(cell);
  else {
    text = String(cell);
    if (FORMULA_START.test(text) && !NUMBER_TEXT.test(text)) text = `'${text}`;
  }
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A CSV cell: Decimals written exactly, null and undefined as empty. */
export type CsvCell = Cell;

/**
 * A CSV file's lines: the header, then one line per row, read from the rows as they are taken.
 * @param header - the column names
 * @param rows - the rows' cells
 * @returns the lines, each ending with a line break
 */
export function* csvLines(header: readonly string[], rows: Iterable<readonly Cell[]>): Generator<string> {
  yield `${header.join(',')}\n`;
  for (const row of rows) yield `${row.map(csvField).join(',')}\n`;
}

function* concat<T>(...parts: Iterable<T>[]): Generator<T> {
  for (const part of parts) yield* part;
}

function* mapped<T, U>(items: Iterable<T>, f: (item: T) => U): Generator<U> {
  for (const item of items) yield f(item);
}

/**
 * Formats epoch milliseconds as an ISO 8601 UTC time for CSV and report columns.
 * @param ts - epoch milliseconds
 * @returns e.g. `2024-01-02T03:04:05.000Z`
 */
export function isoTime(ts: number): string {
  return new Date(ts).toISOString();
}

/**
 * The round-trip trades as CSV, one row per trade (closed trades first, then open ones with
 * empty exit columns), line by line: the trades are read as the lines are taken. Units: `returnPct`
 * is a percent (pnl / entry notional x 100, so 0.28 = +0.28 %), where `returnFraction` in
 * result.json is the same figure as a fraction (0.0028): its digits with the point moved, without
 * the float noise of a product (0.029 is 2.9, not 2.9000000000000004); money columns are in the quote asset,
 * `durationMs` in milliseconds, times ISO 8601 UTC.
 * @param result - the backtest result
 * @returns the lines of `trades.csv`, each ending with a line break
 */
export function tradesCsvLines(result: BacktestResult): Generator<string> {
  return csvLines(
    [
      'sym',
      'positionSide',
      'direction',
      'status',
      'qty',
      'entryTime',
      'exitTime',
      'entryPrice',
      'exitPrice',
      'grossPnl',
      'fees',
      'pnl',
      'returnPct',
      'durationMs',
      'entryOrderId',
      'exitOrderId',
      'entryStrategyId',
      'exitStrategyId',
    ],
    concat(
      mapped(result.trades, (t): Cell[] => [
        t.sym,
        t.positionSide,
        t.direction,
        'closed',
        t.qty,
        isoTime(t.entryTs),
        isoTime(t.exitTs),
        t.entryPrice,
        t.exitPrice,
        t.grossPnl,
        t.fees,
        t.pnl,
        percentOf(t.returnFraction),
        t.durationMs,
        t.entryOrderId,
        t.exitOrderId,
        t.entryStrategyId,
        t.exitStrategyId,
      ]),
      mapped(result.openTrades, (t): Cell[] => [
        t.sym,
        t.positionSide,
        t.direction,
        'open',
        t.qty,
        isoTime(t.entryTs),
        '',
        t.entryPrice,
        '',
        '',
        t.entryFees,
        '',
        '',
        '',
        t.entryOrderId,
        '',
        t.entryStrategyId,
        '',
      ]),
    ),
  );
}

/**
 * The fills as CSV, one row per execution, with the strategy owning its order (`strategyId`).
 * @param result - the backtest result
 * @returns the lines of `fills.csv`, read from the fills as they are taken
 */
export function fillsCsvLines(result: BacktestResult): Generator<string> {
  return csvLines(
    [
      'time',
      'transactionId',
      'orderId',
      'clientOrderId',
      'sym',
      'side',
      'positionSide',
      'quantity',
      'price',
      'fee',
      'rebate',
      'feeCoin',
      'rpnl',
      'execType',
      'strategyId',
    ],
    mapped(result.fills, (f): Cell[] => [
      isoTime(f.timestamp),
      f.transactionId,
      f.orderId,
      f.clientOrderId,
      f.sym,
      f.side,
      f.positionSide,
      f.quantity,
      f.price,
      f.fee,
      f.rebate,
      f.feeCoin,
      f.rpnl,
      f.execType,
      f.strategyId,
    ]),
  );
}

/**
 * The orders in their final state as CSV, with the strategy owning each (`strategyId`) and, for a
 * conditional order (PLACE_ORDER's `conditionCode`), its condition, so an OCO does not read as a
 * plain order of its type.
 * @param result - the backtest result
 * @returns the lines of `orders.csv`, read from the orders as they are taken
 */
export function ordersCsvLines(result: BacktestResult): Generator<string> {
  return csvLines(
    [
      'createTime',
      'updateTime',
      'orderId',
      'clientOrderId',
      'sym',
      'side',
      'orderType',
      'timeInForce',
      'orderState',
      'orderQty',
      'limitPrice',
      'executedQty',
      'executedAvgPrice',
      'fee',
      'reduceOnly',
      'positionSide',
      'reason',
      'strategyId',
      'conditionCode',
      'triggerPrice',
      'stopPrice',
      'timeToSend',
      'actionMsg',
    ],
    mapped(result.orders, (o): Cell[] => [
      isoTime(o.createAt),
      isoTime(o.updateAt),
      o.orderId,
      o.clientOrderId,
      o.sym,
      o.side,
      o.orderType,
      o.timeInForce,
      o.orderState,
      o.orderQty,
      o.limitPrice,
      o.executedQty,
      o.executedAvgPrice,
      o.fee,
      o.reduceOnly,
      o.positionSide,
      o.reason,
      o.strategyId,
      o.condition?.code,
      o.condition?.triggerPrice,
      o.condition?.stopPrice,
      o.condition?.timeToSend,
      o.actionMsg,
    ]),
  );
}

/**
 * The equity curve with its drawdown as CSV: `drawdownPct` is the drawdown fraction's digits with
 * the point moved (0.56 is 56, not 56.00000000000001 from x 100).
 * @param result - the backtest result
 * @returns the lines of `equity.csv`: time, ts (epoch ms), equity, drawdownPct
 */
export function equityCsvLines(result: BacktestResult): Generator<string> {
  const drawdowns = drawdownSeries(result.equityCurve);
  return csvLines(
    ['time', 'ts', 'equity', 'drawdownPct'],
    result.equityCurve.map((s, i) => [isoTime(s.ts), s.ts, s.equity, percentOf(drawdowns[i]?.drawdown ?? 0)]),
  );
}

/**
 * The funding and interest cash flows as CSV, in booking order (empty but for the header when the
 * result has none, e.g. a session whose venue does not report them).
 * @param result - the backtest result
 * @returns the lines of `cash-flows.csv`: time, ts, kind, asset, amount (signed, negative = paid), sym
 */
export function cashFlowsCsvLines(result: BacktestResult): Generator<string> {
  return csvLines(
    ['time', 'ts', 'kind', 'asset', 'amount', 'sym'],
    (result.cashFlows ?? []).map((f) => [isoTime(f.ts), f.ts, f.kind, f.asset, f.amount, f.sym]),
  );
}

/**
 * The liquidations as CSV, one row per liquidation fill (a liquidation without fills has one row
 * with empty fill columns).
 * @param result - the backtest result
 * @returns the lines of `liquidations.csv`
 */
export function liquidationsCsvLines(result: BacktestResult): Generator<string> {
  const rows = (result.liquidations ?? []).flatMap((l) => {
    const head = [
      isoTime(l.ts),
      l.ts,
      l.liquidationEventId,
      l.eventType,
      l.equityBefore,
      l.maintenanceMargin,
      l.equityAfter,
    ];
    return l.fills.length === 0
      ? [head]
      : l.fills.map((f) => [...head, f.orderId, f.sym, f.side, f.quantity, f.price, f.fee]);
  });
  return csvLines(
    [
      'time',
      'ts',
      'liquidationEventId',
      'eventType',
      'equityBefore',
      'maintenanceMargin',
      'equityAfter',
      'orderId',
      'sym',
      'side',
      'quantity',
      'price',
      'liquidationFee',
    ],
    rows,
  );
}

/**
 * A ratio as a percent for a CSV column, or empty when it is not defined: the ratio's shortest
 * digits with the point moved two places (0.301047252322 is 30.1047252322), not `ratio * 100`,
 * whose float product carries noise in its last digits (30.104725232200003).
 */
function percentOf(ratio: number | null): Dec | null {
  return ratio === null ? null : decimalOf(ratio).mul(100);
}

/**
 * The per-sym breakdown as CSV ({@link SymBreakdown} defines each figure): one row per sym, then
 * a `TOTAL` row for the whole run. Ratios are percents (`winRatePct`, `returnContributionPct`,
 * `exposureTimePct`: 1.2 = 1.2 %, the ratio's digits shifted, without float noise), money in the
 * settle asset. Only the header when the result
 * has no breakdown (a session's, or one written before Keel made it).
 * @param result - the backtest result
 * @returns the lines of `syms.csv`
 */
export function symsCsvLines(result: BacktestResult): Generator<string> {
  const breakdown = result.symBreakdown;
  const row = (sym: string, f: SymFigures): Cell[] => [
    sym,
    f.trades,
    percentOf(f.winRate),
    f.netPnl,
    f.fees,
    percentOf(f.returnContribution),
    percentOf(f.exposureTime),
  ];
  return csvLines(
    ['sym', 'trades', 'winRatePct', 'netPnl', 'fees', 'returnContributionPct', 'exposureTimePct'],
    breakdown === undefined
      ? []
      : [...breakdown.syms.map((s) => row(s.sym, s)), row(SYM_TOTAL_ROW, breakdown.total)],
  );
}

/** The `sym` of the whole run's row in `syms.csv`. */
export const SYM_TOTAL_ROW = 'TOTAL';
