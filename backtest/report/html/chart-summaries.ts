import { decimalOf } from '../../../core/model/index.ts';
import type { ChartData, ChartPoint } from './chart-data.ts';
import { formatMoney, formatPercent, formatPrice, formatTime } from './format-values.ts';

/** The first, last, lowest and highest point of a line (the earliest of equal lows or highs). */
interface Extremes {
  readonly first: ChartPoint;
  readonly last: ChartPoint;
  readonly low: ChartPoint;
  readonly high: ChartPoint;
}

function extremesOf(points: readonly ChartPoint[]): Extremes | undefined {
  const first = points[0];
  const last = points[points.length - 1];
  if (first === undefined || last === undefined) return undefined;
  let low = first;
  let high = first;
  for (const p of points) {
    if (p[1] < low[1]) low = p;
    if (p[1] > high[1]) high = p;
  }
  return { first, last, low, high };
}

const at = (p: ChartPoint): string => formatTime(p[0] * 1000);

/** `from T0 to T1: first a, last b, lowest c at T, highest d at T`. */
function spanText({ first, last, low, high }: Extremes, value: (v: number) => string): string {
  return `from ${at(first)} to ${at(last)}: first ${value(first[1])}, last ${value(last[1])}, lowest ${value(low[1])} at ${at(low)}, highest ${value(high[1])} at ${at(high)}`;
}

/** A drawdown in percent drawn as a negative value, said as a positive percentage. */
const drawdownText = (v: number): string => formatPercent(v === 0 ? 0 : -v / 100);

/** The deepest point of the drawdown line and when, or that there was none. */
function deepestText(drawdown: readonly ChartPoint[]): string {
  const x = extremesOf(drawdown);
  if (x === undefined || x.low[1] === 0) return 'no drawdown';
  return `max drawdown ${drawdownText(x.low[1])} at ${at(x.low)}`;
}

/**
 * The text alternative of a price chart: its span, first, last, lowest and highest price (when),
 * and its fills by side, with how many of them are drawn.
 * @param series - the chart's data
 * @param quote - the currency prices are in (e.g. USDT); empty when unknown
 * @returns one sentence, e.g. `BINANCE_PERP_BTC_USDT price in USDT from ... ; 12 fills (6 buys, 6 sells)`
 */
export function priceChartSummary(series: ChartData['prices'][number], quote: string): string {
  const x = extremesOf(series.points);
  const name = `${series.sym} price${quote === '' ? '' : ` in ${quote}`}`;
  const line =
    x === undefined ? `${name}: no prices` : `${name} ${spanText(x, (v) => formatPrice(decimalOf(v)))}`;
  const sells = series.fillCount - series.buyCount;
  const drawn = series.markers.length < series.fillCount ? `, ${series.markers.length} of them drawn` : '';
  const fills =
    series.fillCount === 0
      ? 'no fills'
      : `${series.fillCount} fills (${series.buyCount} buys, ${sells} sells)${drawn}`;
  return `${line}; ${fills}`;
}

/**
 * The text alternative of the equity chart: its span, first, last, lowest and highest equity
 * (when), and the deepest drawdown drawn (when).
 * @param charts - the charts' data
 * @param asset - the currency equity is in (e.g. USDT); empty when unknown
 * @returns one sentence
 */
export function equityChartSummary(charts: ChartData, asset: string): string {
  const x = extremesOf(charts.equity);
  const name = `Equity${asset === '' ? '' : ` in ${asset}`}`;
  if (x === undefined) return `${name}: no equity samples`;
  return `${name} ${spanText(x, (v) => formatMoney(decimalOf(v)))}; ${deepestText(charts.drawdown)}`;
}

/**
 * The text alternative of the drawdown chart: its span, the deepest drawdown (when) and the
 * drawdown at the end.
 * @param charts - the charts' data
 * @returns one sentence
 */
export function drawdownChartSummary(charts: ChartData): string {
  const x = extremesOf(charts.drawdown);
  if (x === undefined) return 'Drawdown: no equity samples';
  return `Drawdown below the running peak of equity from ${at(x.first)} to ${at(x.last)}: ${deepestText(charts.drawdown)}, ${drawdownText(x.last[1])} at the end`;
}
