import { parseSym } from '../../../core/model/index.ts';
import type { BacktestResult, PriceSeries } from '../result/backtest-result.ts';
import type { ChartData } from './chart-data.ts';
import { drawdownChartSummary, equityChartSummary, priceChartSummary } from './chart-summaries.ts';
import { escapeHtml as e } from './escape-html.ts';
import { formatInterval } from './format-values.ts';

/** What the time axes are in: the report states every time in UTC, and so do the charts. */
const TIME_AXIS = 'time in UTC';

/**
 * The currency a sym's prices are in: a crypto sym's quote asset, USD for a US equity, nothing
 * for a sym Keel cannot read.
 */
function quoteOf(sym: string): string {
  try {
    const id = parseSym(sym);
    return id.kind === 'crypto' ? id.quote : 'USD';
  } catch {
    return '';
  }
}

/** `[USDT]`, as the tables label their money columns; nothing without a currency. */
const unit = (asset: string): string => (asset === '' ? '' : ` [${asset}]`);

/** `2nd`, `3rd`, `11th`, `21st`. */
function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

function markersNote(series: ChartData['prices'][number]): string {
  if (series.markers.length >= series.fillCount) return '';
  const drawnBuys = series.markers.filter((m) => m.shape === 'arrowUp').length;
  const nth = ordinal(series.stride);
  return `<p class="muted fills-shown">Fill markers: ${series.markers.length} of ${series.fillCount} shown (every ${nth} buy and every ${nth} sell: ${drawnBuys} of ${series.buyCount} buys, ${series.markers.length - drawnBuys} of ${series.fillCount - series.buyCount} sells); every fill is in fills.csv and result.json.</p>`;
}

/** How to zoom a price chart, and when its fill markers carry text (the page's script does both). */
const PRICE_CHART_HELP =
  '<p class="muted chart-help">Zoom with the mouse wheel or by dragging the time axis, pan by dragging the chart, double-click it to see the whole run again; a fill marker shows its side, quantity and price where there is room for them at the zoom.</p>';

/**
 * What a price chart's line is a sample of: on bar data whose bars are at least a bucket long,
 * one close a bar (a bucket of 1 min says nothing of daily bars); else the bucket closes, with
 * the bars' range in each bucket on bar data.
 * @param bucketMs - the width of the equity buckets (absent in older result files)
 * @param barMs - the length of the sym's bars (absent on quote or trade data, in older files)
 * @returns e.g. `1 day bar closes with their low-high ranges`, `bucket closes every 32 min`
 */
export function priceLineSample(bucketMs: number | undefined, barMs: number | undefined): string {
  if (barMs !== undefined && (bucketMs === undefined || barMs >= bucketMs))
    return `${formatInterval(barMs)} bar closes with their low-high ranges`;
  const closes =
    bucketMs === undefined ? 'sampled bucket closes' : `bucket closes every ${formatInterval(bucketMs)}`;
  return barMs === undefined
    ? closes
    : `${closes} with the low-high range of the ${formatInterval(barMs)} bars in each`;
}

/**
 * A price chart's title: the line is a sample (bar or bucket closes) with the drawn fills' own
 * prices put in, e.g. `BTC price [USDT] (bucket closes every 32 min, plus fill prices) and fills,
 * time in UTC`.
 */
function priceChartTitle(series: PriceSeries): string {
  const sample = priceLineSample(series.bucketMs, series.barMs);
  return `${series.sym} price${unit(quoteOf(series.sym))} (${sample}, plus fill prices) and fills, ${TIME_AXIS}`;
}

/**
 * One chart as a figure: its title a heading in the caption (with a note under it), the drawing
 * an image named by its summary (the script hides the library's layout table from screen
 * readers), and the summary as text when scripts are off.
 */
function chartFigure(id: string, kind: string, title: string, note: string, summary: string): string {
  return `<figure class="chart-figure"><figcaption><h3 class="chart-title">${e(title)}</h3>${note}</figcaption><div class="chart" id="${id}" data-chart="${kind}" role="img" aria-label="${e(summary)}"></div><noscript><p class="chart-summary">${e(summary)}</p></noscript></figure>`;
}

/**
 * The Charts section: a price chart per sym, equity and drawdown, each a figure with a heading
 * and a text summary (first, last, lowest and highest value and when; the deepest drawdown and
 * when), its axes' currency and time zone in its title.
 * @param result - the backtest result
 * @param charts - the data the charts draw
 * @param settleAsset - the currency equity is in; empty when unknown
 * @returns the section's HTML
 */
export function chartsSection(result: BacktestResult, charts: ChartData, settleAsset: string): string {
  const prices = result.prices
    .map((p, i) => {
      const series = charts.prices[i];
      const title = priceChartTitle(p);
      return series === undefined
        ? ''
        : chartFigure(
            `price-chart-${i}`,
            'price',
            title,
            `${markersNote(series)}${PRICE_CHART_HELP}`,
            priceChartSummary(series, quoteOf(p.sym), p),
          );
    })
    .join('');
  const noScript =
    '<noscript><p class="muted">The charts are drawn by the page\'s script, which is off: each chart\'s summary stands in its place.</p></noscript>';
  return `<section id="charts"><h2>Charts</h2>${noScript}${prices}${chartFigure('equity-chart', 'equity', `Equity${unit(settleAsset)}, ${TIME_AXIS}`, '', equityChartSummary(result, settleAsset))}${chartFigure('drawdown-chart', 'drawdown', `Drawdown [%], ${TIME_AXIS}`, '', drawdownChartSummary(result))}</section>`;
}
