import { decimalOf } from '../../../core/model/index.ts';
import type { EquitySample, PricePoint } from '../equity-sample.ts';
import { type DrawdownPoint, drawdownSeries } from '../metrics/drawdown.ts';
import type { BacktestResult, PriceSeries } from '../result/backtest-result.ts';
import type { ChartData, ChartPoint } from './chart-data.ts';
import { formatMoney, formatPercent, formatPrice, formatTime } from './format-values.ts';

/** The first, last, lowest and highest point of a price line (the earliest of equal lows or highs). */
interface Extremes {
  readonly first: PricePoint;
  readonly last: PricePoint;
  readonly low: PricePoint;
  readonly high: PricePoint;
}

/** A chart point (epoch seconds) as a price point (epoch ms). */
const pricePointOf = (p: ChartPoint): PricePoint => ({ ts: p[0] * 1000, price: p[1] });

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
  return {
    first: pricePointOf(first),
    last: pricePointOf(last),
    low: pricePointOf(low),
    high: pricePointOf(high),
  };
}

/** The lower of two points, the earlier of equal ones. */
const lower = (a: PricePoint, b: PricePoint): PricePoint =>
  a.price < b.price || (a.price === b.price && a.ts <= b.ts) ? a : b;

/** The higher of two points, the earlier of equal ones. */
const higher = (a: PricePoint, b: PricePoint): PricePoint =>
  a.price > b.price || (a.price === b.price && a.ts <= b.ts) ? a : b;

const at = (p: PricePoint): string => formatTime(p.ts);
const price = (p: PricePoint): string => formatPrice(decimalOf(p.price));

/**
 * `from T0 to T1: first a, last b, lowest c at T, highest d at T`: the lowest and highest of every
 * price the run marked (a wick inside a bucket the line shows only the close of) and of the line
 * drawn (which puts fill prices in); for a result written before Keel recorded the marked
 * extremes, the line's own, said to be sampled.
 */
function spanText(line: Extremes, marked: Pick<PriceSeries, 'low' | 'high'>): string {
  const { first, last } = line;
  const span = `from ${at(first)} to ${at(last)}: first ${price(first)}, last ${price(last)}`;
  if (marked.low === undefined || marked.high === undefined)
    return `${span}, lowest sampled ${price(line.low)} at ${at(line.low)}, highest sampled ${price(line.high)} at ${at(line.high)}`;
  const low = lower(marked.low, line.low);
  const high = higher(marked.high, line.high);
  return `${span}, lowest ${price(low)} at ${at(low)}, highest ${price(high)} at ${at(high)}`;
}

/**
 * The deepest drawdown and when, or that there was none: the depth is the metrics' (measured on
 * every equity sample, as result.json holds it), its time theirs too, or for a result written
 * before Keel recorded it the time of the deepest point of the stored curve.
 */
function deepestText(result: BacktestResult): string {
  const { maxDrawdown, maxDrawdownTs } = result.metrics;
  if (maxDrawdown === 0) return 'no drawdown';
  const ts = maxDrawdownTs ?? deepestPointOf(drawdownSeries(result.equityCurve))?.ts;
  return `max drawdown ${formatPercent(maxDrawdown)}${ts === undefined ? '' : ` at ${formatTime(ts)}`}`;
}

/** The first of the deepest points of a drawdown series, none when it never falls. */
function deepestPointOf(series: readonly DrawdownPoint[]): DrawdownPoint | undefined {
  let deepest: DrawdownPoint | undefined;
  for (const d of series) if (d.drawdown > (deepest?.drawdown ?? 0)) deepest = d;
  return deepest;
}

/** The first, last, lowest and highest sample of an equity curve. */
interface EquityExtremes {
  readonly first: EquitySample;
  readonly last: EquitySample;
  readonly low: EquitySample;
  readonly high: EquitySample;
}

/** First, last, lowest and highest equity sample of the curve (the earliest of equal lows or highs). */
function equityExtremesOf(curve: readonly EquitySample[]): EquityExtremes | undefined {
  const first = curve[0];
  const last = curve[curve.length - 1];
  if (first === undefined || last === undefined) return undefined;
  let low = first;
  let high = first;
  for (const s of curve) {
    if (s.equity.lt(low.equity)) low = s;
    if (s.equity.gt(high.equity)) high = s;
  }
  return { first, last, low, high };
}

/**
 * The text alternative of a price chart: its span, first and last price, the lowest and highest
 * price (when) of every price the run marked, not only of the bucket closes the line draws, and
 * its fills by side, with how many of them are drawn.
 * @param series - the chart's data
 * @param quote - the currency prices are in (e.g. USDT); empty when unknown
 * @param marked - the result's lowest and highest price of the sym (absent in older result files)
 * @returns one sentence, e.g. `BINANCE_PERP_BTC_USDT price in USDT from ... ; 12 fills (6 buys, 6 sells)`
 */
export function priceChartSummary(
  series: ChartData['prices'][number],
  quote: string,
  marked: Pick<PriceSeries, 'low' | 'high'>,
): string {
  const x = extremesOf(series.points);
  const name = `${series.sym} price${quote === '' ? '' : ` in ${quote}`}`;
  const line = x === undefined ? `${name}: no prices` : `${name} ${spanText(x, marked)}`;
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
 * (when), and the deepest drawdown (when), all from the result's full curve and metrics, not from
 * the points the chart draws (one a second).
 * @param result - the result
 * @param asset - the currency equity is in (e.g. USDT); empty when unknown
 * @returns one sentence
 */
export function equityChartSummary(result: BacktestResult, asset: string): string {
  const x = equityExtremesOf(result.equityCurve);
  const name = `Equity${asset === '' ? '' : ` in ${asset}`}`;
  if (x === undefined) return `${name}: no equity samples`;
  const when = (s: EquitySample) => formatTime(s.ts);
  const money = (s: EquitySample) => formatMoney(s.equity);
  return `${name} from ${when(x.first)} to ${when(x.last)}: first ${money(x.first)}, last ${money(x.last)}, lowest ${money(x.low)} at ${when(x.low)}, highest ${money(x.high)} at ${when(x.high)}; ${deepestText(result)}`;
}

/**
 * The text alternative of the drawdown chart: its span, the deepest drawdown (when) and the
 * drawdown at the end, from the result's full curve and metrics.
 * @param result - the result
 * @returns one sentence
 */
export function drawdownChartSummary(result: BacktestResult): string {
  const series = drawdownSeries(result.equityCurve);
  const first = series[0];
  const last = series[series.length - 1];
  if (first === undefined || last === undefined) return 'Drawdown: no equity samples';
  return `Drawdown below the running peak of equity from ${formatTime(first.ts)} to ${formatTime(last.ts)}: ${deepestText(result)}, ${formatPercent(last.drawdown)} at the end`;
}
