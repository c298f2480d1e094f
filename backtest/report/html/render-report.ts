import { dirname, join } from 'node:path';
import type { Dec } from '../../../core/model/index.ts';
import { firstRecords } from '../log/record-log.ts';
import { NOT_ANNUALIZED } from '../metrics/annualization.ts';
import { loanTotals } from '../metrics/cash-flow-metrics.ts';
import type { BacktestResult, JsonValue, ModelDescription } from '../result/backtest-result.ts';
import { liquidationNotice } from '../result/liquidation-notice.ts';
import { readResult } from '../result/result-files.ts';
import { resultWriter } from '../result/result-version.ts';
import { stableJsonLine } from '../result/stable-json-line.ts';
import { formatStrategyFault } from '../result/strategy-fault-record.ts';
import { writeTextFile } from '../result/write-text-file.ts';
import type { RoundTripTrade } from '../trades/round-trip-trade.ts';
import { algoOrdersSection, denialsSection, trailingStopsSection } from './activity-tables.ts';
import { breakableName } from './breakable-name.ts';
import { chartData } from './chart-data.ts';
import { lightweightChartsSource } from './chart-library.ts';
import { chartsSection } from './charts-section.ts';
import { escapeHtml, jsonForScript, scriptSafe } from './escape-html.ts';
import { formatDuration, formatMoney, formatPercent, formatPrice, formatTime } from './format-values.ts';
import { CHART_SCRIPT, ERROR_CAPTURE_SCRIPT } from './page-scripts.ts';
import { warningsAndNotes } from './post-only-rejections.ts';
import { REPORT_CSS } from './report-style.ts';
import { statsRows } from './stats-rows.ts';
import { symsSection } from './sym-table.ts';

/** Above this many trades the page lists the first ones and points to the CSV and JSON files. */
export const MAX_TRADE_ROWS = 2000;

/** Options of {@link renderHtmlReport}. */
export interface HtmlReportOptions {
  /** The currency equity and fees are in, shown in labels (e.g. USDT); the result's `runConfig.settleAsset` by default. */
  readonly settleAsset?: string;
  /** Source of the lightweight-charts standalone build; the installed package by default. */
  readonly chartLibrarySource?: string;
}

const e = escapeHtml;

/** Settings as JSON with sorted keys, as the result file holds them: a rebuilt report reads the same. */
function jsonText(value: JsonValue | undefined): string {
  return value === undefined ? '' : stableJsonLine(value);
}

function modelLine(model: ModelDescription): string {
  const params = model.params === undefined ? '' : ` <code>${e(jsonText(model.params))}</code>`;
  return `<strong>${e(model.name)}</strong>: ${e(model.description)}${params}`;
}

function assumptionsSection(result: BacktestResult): string {
  const { meta, metrics } = result;
  const ann = metrics.annualization;
  const rows: [string, string][] = [
    [
      'Data',
      meta.recordings
        .map(
          (r) =>
            `<code>${e(r.path)}</code>${r.synthetic ? ' <strong>(synthetic)</strong>' : ' (recorded)'}${r.description === undefined ? '' : ` ${e(r.description)}`}`,
        )
        .join('<br>') || '<span class="muted">none stated</span>',
    ],
    ['Fill model', modelLine(meta.fillModel)],
    ['Latency model', modelLine(meta.latencyModel)],
    ['Fee model', modelLine(meta.feeModel)],
    [
      'Strategies',
      meta.strategies
        .map((s) => `<strong>${e(s.name)}</strong> (${e(s.id)}) <code>${e(jsonText(s.params))}</code>`)
        .join('<br>'),
    ],
    ['Run', `<code>${e(jsonText(meta.runConfig))}</code>`],
    [
      'Annualization',
      e(
        `${ann.period === 'day' ? `daily returns (from the starting equity to the last equity of each ${ann.tradingHours === 'us-equity' ? 'New York' : 'UTC'} day)` : 'returns on a regular time grid of the equity curve (from the starting equity to the last equity of each grid interval)'}; ${ann.periodsPerYear === null ? NOT_ANNUALIZED : `${ann.periodsPerYear.toFixed(1)} periods a year`}; ${ann.tradingDaysPerYear} trading days a year; risk-free rate ${formatPercent(ann.riskFreeRate)}${ann.ruinTs === undefined ? '' : `; equity reached zero or below at ${formatTime(ann.ruinTs)}: the returns stop there, counted as a total loss (annualized return -100 %); volatility, Sharpe and Sortino are not defined`}`,
      ),
    ],
    ...meta.assumptions.map((a): [string, string] => ['Also', e(a)]),
    ...(meta.warnings ?? []).map((w): [string, string] => ['Warning', e(w)]),
  ];
  return `<section id="assumptions"><h2>Assumptions</h2><dl class="assumptions">${rows
    .map(([k, v]) => `<dt>${e(k)}</dt><dd>${v}</dd>`)
    .join('')}</dl></section>`;
}

/**
 * What kind of run a result is of, in the report's words: paper and live sessions state their
 * mode in `runConfig.mode`; a backtest's result has none.
 */
function runKindOf(meta: BacktestResult['meta']): string {
  const mode = meta.runConfig.mode;
  return mode === 'paper' ? 'paper session' : mode === 'live' ? 'live session' : 'backtest';
}

/** Strategy faults, a liquidation and setup warnings, on top where nobody can miss them; notes after. */
function problemBanners(result: BacktestResult, settleAsset: string): string {
  const faults = result.faults ?? [];
  const { warnings, notes } = warningsAndNotes(result.meta.warnings ?? [], result.orders);
  const liquidated = liquidationNotice(result, settleAsset);
  const list = (items: readonly string[]) => `<ul>${items.map((i) => `<li>${e(i)}</li>`).join('')}</ul>`;
  return [
    liquidated === undefined
      ? ''
      : `<div class="banner fault" id="liquidation-warning">⚠ ${e(liquidated)}</div>`,
    faults.length === 0
      ? ''
      : `<div class="banner fault" id="strategy-faults">STRATEGY FAULTS: ${faults.length === 1 ? 'a strategy' : `${faults.length} strategies`} failed and ${faults.length === 1 ? 'was' : 'were'} halted; the figures below cover a run in which ${faults.length === 1 ? 'it' : 'they'} stopped trading.${list(faults.map(formatStrategyFault))}</div>`,
    warnings.length === 0
      ? ''
      : `<div class="banner warning" id="run-warnings">WARNINGS: the run's setup looks wrong.${list(warnings)}</div>`,
    notes.length === 0
      ? ''
      : `<div class="banner note" id="run-notes">NOTES: normal venue behaviour, not a setup problem.${list(notes)}</div>`,
  ].join('');
}

/**
 * The currency a result's money is in, as its run recorded it (`runConfig.settleAsset`), so a
 * report rebuilt from the result file alone labels money as the original did.
 */
function settleAssetOf(result: BacktestResult): string {
  const asset = result.meta.runConfig.settleAsset;
  return typeof asset === 'string' ? asset : '';
}

function signClass(value: Dec | number): string {
  const n = typeof value === 'number' ? value : value.toNumber();
  return n > 0 ? 'num pos' : n < 0 ? 'num neg' : 'num';
}

/** Who opened and who closed a trade: one id when the same strategy did both, else `entry → exit`. */
function tradeStrategies(t: RoundTripTrade): string {
  const entry = t.entryStrategyId ?? '?';
  const exit = t.exitStrategyId ?? '?';
  return entry === exit ? entry : `${entry} → ${exit}`;
}

function tradeRow(t: RoundTripTrade, i: number, withStrategy: boolean): string {
  const strategy = withStrategy ? `<td>${breakableName(tradeStrategies(t))}</td>` : '';
  return `<tr><td class="num">${i + 1}</td>${strategy}<td>${breakableName(t.sym)}</td><td>${e(t.direction)}</td><td class="num">${e(t.qty.toFixed())}</td><td>${e(formatTime(t.entryTs))}</td><td>${e(formatTime(t.exitTs))}</td><td class="num">${e(formatPrice(t.entryPrice))}</td><td class="num">${e(formatPrice(t.exitPrice))}</td><td class="${signClass(t.pnl)}">${e(formatMoney(t.pnl))}</td><td class="${signClass(t.returnFraction)}">${e(formatPercent(t.returnFraction))}</td><td class="num">${e(formatMoney(t.fees))}</td><td class="num">${e(formatDuration(t.durationMs))}</td></tr>`;
}

function tradesSection(result: BacktestResult, settleAsset: string): string {
  const money = settleAsset === '' ? '' : ` [${e(settleAsset)}]`;
  const total = result.trades.length;
  const shown = firstRecords(result.trades, MAX_TRADE_ROWS);
  const note =
    total > shown.length
      ? `<p class="muted" id="trades-shown">Showing the first ${shown.length} of ${total} trades; the full list is in trades.csv and result.json.</p>`
      : '';
  const open =
    result.openTrades.length === 0
      ? ''
      : `<p class="muted">${result.openTrades.length} position lot(s) still open at the end are not counted as trades.</p>`;
  // Several strategies' trades: which opened and which closed each (trades.csv has both ids).
  const strategies = new Set(shown.flatMap((t) => [t.entryStrategyId, t.exitStrategyId]));
  strategies.delete(undefined);
  const withStrategy = strategies.size > 1;
  const head = `<tr><th>#</th>${withStrategy ? '<th>Strategy</th>' : ''}<th>Sym</th><th>Dir.</th><th>Qty</th><th>Entry time</th><th>Exit time</th><th>Entry</th><th>Exit</th><th>PnL${money}</th><th>Return</th><th>Fees${money}</th><th>Duration</th></tr>`;
  const body =
    shown.length === 0
      ? '<tr><td colspan="12" class="muted">No closed trades.</td></tr>'
      : shown.map((t, i) => tradeRow(t, i, withStrategy)).join('\n');
  return `<section id="trades"><h2>Trades (${total})</h2>${note}${open}<table class="trades"><thead>${head}</thead><tbody>\n${body}\n</tbody></table></section>`;
}

function statsSection(result: BacktestResult, settleAsset: string): string {
  const rows = statsRows(result.metrics, settleAsset, loanTotals(result.cashFlows ?? []))
    .map(
      (r) =>
        `<tr><th scope="row">${e(r.label)}</th><td class="num">${e(r.value)}</td><td class="def">${e(r.definition)}</td></tr>`,
    )
    .join('\n');
  return `<section id="stats"><h2>Statistics</h2><table class="stats"><tbody>\n${rows}\n</tbody></table></section>`;
}

/**
 * Renders a backtest result as one self-contained HTML page that opens offline: the
 * lightweight-charts library and all data are inlined. It shows the assumptions (data, fill,
 * latency and fee models, synthetic data on top), price with fill markers, equity and drawdown
 * charts, the stats table, the trade list, and (for results that hold them) the algo orders, the
 * emulated trailing stops and the denied intents. Every text from the result is escaped. The trade
 * list and the fill markers are capped ({@link MAX_TRADE_ROWS}, `MAX_FILL_MARKERS` per sym), and
 * the page then says how many of how many it shows and that the CSV and JSON files hold them all.
 * @param result - the backtest result
 * @param options - settle asset for labels; library source override
 * @returns the HTML text
 * @throws Error when lightweight-charts is not installed and no source is given
 */
export function renderHtmlReport(result: BacktestResult, options: HtmlReportOptions = {}): string {
  const { meta, metrics } = result;
  const charts = chartData(result);
  const settleAsset = options.settleAsset ?? settleAssetOf(result);
  const library = options.chartLibrarySource ?? lightweightChartsSource();
  const run = runKindOf(meta);
  const synthetic = meta.synthetic
    ? `<div class="banner synthetic" id="synthetic-banner">SYNTHETIC DATA: this ${run} ran on generated market data, not on data from a real market. Its figures say nothing about real performance.</div>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(`${meta.synthetic ? '[SYNTHETIC] ' : ''}${meta.title}`)} - Keel ${run}</title>
<style>${REPORT_CSS}</style>
</head>
<body data-ready="false">
<script>${ERROR_CAPTURE_SCRIPT}</script>
<header><h1>${e(meta.title)}</h1><p class="sub">${e(`${formatTime(metrics.start)} to ${formatTime(metrics.end)} (${formatDuration(metrics.durationMs)})`)}</p><p class="sub" id="keel-version">${e(`Made by ${resultWriter(meta.keel)}`)}</p></header>
${synthetic}
${problemBanners(result, settleAsset)}
<div class="errors" id="keel-errors" hidden></div>
${assumptionsSection(result)}
${chartsSection(result, charts, settleAsset)}
${statsSection(result, settleAsset)}
${symsSection(result, settleAsset)}${tradesSection(result, settleAsset)}
${algoOrdersSection(result)}${trailingStopsSection(result)}
${denialsSection(result)}
<script>${scriptSafe(library)}</script>
<script type="application/json" id="keel-chart-data">${jsonForScript(charts)}</script>
<script>${CHART_SCRIPT}</script>
</body>
</html>
`;
}

/**
 * Writes the HTML report of a result to a file, replacing it whole or not at all.
 * @param result - the backtest result
 * @param path - where to write (e.g. `out/report.html`)
 * @param options - see {@link renderHtmlReport}
 * @returns the path written
 */
export async function writeHtmlReport(
  result: BacktestResult,
  path: string,
  options: HtmlReportOptions = {},
): Promise<string> {
  return writeTextFile(path, [renderHtmlReport(result, options)]);
}

/**
 * Rebuilds the HTML report from a result file (`keel report <result.json>`).
 * @param resultPath - a `result.json` written by a backtest
 * @param htmlPath - where to write; `report.html` next to the result file by default
 * @param options - see {@link renderHtmlReport}
 * @returns the path written
 * @throws Error naming the file and field when the result file is missing or damaged
 */
export async function writeHtmlReportFromFile(
  resultPath: string,
  htmlPath = join(dirname(resultPath), 'report.html'),
  options: HtmlReportOptions = {},
): Promise<string> {
  const result = await readResult(resultPath);
  try {
    return await writeHtmlReport(result, htmlPath, options);
  } finally {
    result.dispose?.();
  }
}
