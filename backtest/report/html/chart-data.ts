import type { Execution } from '../../../core/model/index.ts';
import type { PricePoint } from '../equity-sample.ts';
import { drawdownSeries } from '../metrics/drawdown.ts';
import type { BacktestResult } from '../result/backtest-result.ts';

/** [time in epoch seconds, value]: the compact point form the page's script expands. */
export type ChartPoint = readonly [number, number];

/** A fill marker in lightweight-charts' shape. */
export interface ChartMarker {
  readonly time: number;
  readonly position: 'belowBar' | 'aboveBar';
  readonly shape: 'arrowUp' | 'arrowDown';
  readonly color: string;
  readonly text: string;
}

/** Everything the charts draw. */
export interface ChartData {
  readonly prices: readonly {
    readonly sym: string;
    readonly points: readonly ChartPoint[];
    readonly markers: readonly ChartMarker[];
  }[];
  readonly equity: readonly ChartPoint[];
  /** Drawdown in percent, as negative values so the area hangs below zero. */
  readonly drawdown: readonly ChartPoint[];
}

/** Above this many fills on one sym the markers carry no text, so the chart stays readable. */
const MAX_LABELLED_MARKERS = 200;

/**
 * Converts epoch-ms samples to the chart's time scale (whole epoch seconds, strictly
 * increasing): samples in the same second keep the last value.
 * @param samples - [epoch ms, value] in time order
 * @returns the chart points
 */
export function toChartPoints(samples: Iterable<readonly [number, number]>): ChartPoint[] {
  const out: [number, number][] = [];
  for (const [ts, value] of samples) {
    const time = Math.floor(ts / 1000);
    const last = out[out.length - 1];
    if (last !== undefined && last[0] >= time) last[1] = value;
    else out.push([time, value]);
  }
  return out;
}

function snapToPoint(points: readonly ChartPoint[], time: number): number {
  let lo = 0;
  let hi = points.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((points[mid] as ChartPoint)[0] <= time) lo = mid;
    else hi = mid - 1;
  }
  return points[lo]?.[0] ?? time;
}

function markersFor(fills: readonly Execution[], points: readonly ChartPoint[]): ChartMarker[] {
  const labelled = fills.length <= MAX_LABELLED_MARKERS;
  return fills.map((f) => ({
    time: snapToPoint(points, Math.floor(f.timestamp / 1000)),
    position: f.side === 'BUY' ? 'belowBar' : 'aboveBar',
    shape: f.side === 'BUY' ? 'arrowUp' : 'arrowDown',
    color: f.side === 'BUY' ? '#089981' : '#f23645',
    text: labelled ? `${f.side === 'BUY' ? 'B' : 'S'} ${f.quantity.toFixed()} @ ${f.price.toFixed()}` : '',
  }));
}

/**
 * Builds the chart data of a result: one price line per sym with its fills as markers
 * (snapped to the price sample at or before the fill, in time order), equity and drawdown.
 * @param result - the backtest result
 * @returns the data the report's script draws
 */
export function chartData(result: BacktestResult): ChartData {
  return {
    prices: result.prices.map((series) => {
      const points = toChartPoints(series.points.map((p: PricePoint) => [p.ts, p.price] as const));
      const fills = result.fills.filter((f) => f.sym === series.sym);
      const markers = markersFor(fills, points).sort((a, b) => a.time - b.time);
      return { sym: series.sym, points, markers };
    }),
    equity: toChartPoints(result.equityCurve.map((s) => [s.ts, s.equity.toNumber()] as const)),
    drawdown: toChartPoints(
      drawdownSeries(result.equityCurve).map((d) => [d.ts, -d.drawdown * 100] as const),
    ),
  };
}
