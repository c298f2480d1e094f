import type { Execution } from '../../../core/model/index.ts';
import type { PricePoint, SampledPricePoint } from '../equity-sample.ts';
import { drawdownSeries } from '../metrics/drawdown.ts';
import type { BacktestResult } from '../result/backtest-result.ts';

/** [time in epoch seconds, value]: the compact point form the page's script expands. */
export type ChartPoint = readonly [number, number];

/**
 * [time in epoch seconds, low, high, close]: a bucket's bar range, drawn as a bar from its low to
 * its high with a tick at its close.
 */
export type ChartRange = readonly [number, number, number, number];

/**
 * A fill marker in lightweight-charts' shape, drawn at the fill's price (a buy's arrow points up
 * to it from below, a sell's down from above), so many fills in one bar do not stack into a
 * column far from the price.
 */
export interface ChartMarker {
  readonly time: number;
  readonly position: 'atPriceBottom' | 'atPriceTop';
  readonly price: number;
  readonly shape: 'arrowUp' | 'arrowDown';
  readonly color: string;
  /** `B 1 @ 40123.4`: the page draws it where it fits at the chart's zoom (see marker-labels.ts). */
  readonly text: string;
}

/** Everything the charts draw. */
export interface ChartData {
  readonly prices: readonly {
    readonly sym: string;
    readonly points: readonly ChartPoint[];
    /** Each bucket's bar range on bar data (empty on quotes and trades): the chart shows the wicks. */
    readonly ranges: readonly ChartRange[];
    readonly markers: readonly ChartMarker[];
    /** Fills of the sym in the run; `markers` holds at most {@link MAX_FILL_MARKERS} of them. */
    readonly fillCount: number;
    /** Buys among those fills (the rest are sells). */
    readonly buyCount: number;
    /** The stride of the markers: every `stride`-th buy and every `stride`-th sell is drawn. */
    readonly stride: number;
  }[];
  readonly equity: readonly ChartPoint[];
  /** Drawdown in percent, as negative values so the area hangs below zero. */
  readonly drawdown: readonly ChartPoint[];
}

/**
 * Most fill markers drawn per sym (Keel's choice): a self-contained page with tens of thousands
 * of markers is slow to open and unreadable; above it every k-th buy and every k-th sell is
 * drawn and the page says how many of how many.
 */
export const MAX_FILL_MARKERS = 2000;

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

/**
 * The bar ranges of a sampled price line on the chart's time scale: ranges of the same second
 * merge (the lowest low, the highest high, the last close).
 * @param points - the series' points in time order, some with a bar range
 * @returns the ranges, one a second at most
 */
export function toChartRanges(points: readonly SampledPricePoint[]): ChartRange[] {
  const out: [number, number, number, number][] = [];
  for (const { ts, price, low, high } of points) {
    if (low === undefined || high === undefined) continue;
    const time = Math.floor(ts / 1000);
    const last = out[out.length - 1];
    if (last !== undefined && last[0] >= time) {
      last[1] = Math.min(last[1], low);
      last[2] = Math.max(last[2], high);
      last[3] = price;
    } else out.push([time, low, high, price]);
  }
  return out;
}

function markerOf(f: Execution): ChartMarker {
  return {
    time: Math.floor(f.timestamp / 1000),
    position: f.side === 'BUY' ? 'atPriceBottom' : 'atPriceTop',
    price: f.price.toNumber(),
    shape: f.side === 'BUY' ? 'arrowUp' : 'arrowDown',
    // The page's own gain and loss colours: as label text on white they pass WCAG AA (5.1:1, 5.4:1).
    color: f.side === 'BUY' ? '#1a7f37' : '#cf222e',
    text: `${f.side === 'BUY' ? 'B' : 'S'} ${f.quantity.toFixed()} @ ${f.price.toFixed()}`,
  };
}

/**
 * The price line with the drawn fills' own points in it: each marker's (time, price) replaces a
 * sampled point of the same second, so the marker sits on the line at its own time.
 */
function withFillPoints(points: readonly ChartPoint[], markers: readonly ChartMarker[]): ChartPoint[] {
  const out: ChartPoint[] = [];
  const put = (time: number, price: number, replaces: boolean): void => {
    const last = out[out.length - 1];
    if (last === undefined || last[0] < time) out.push([time, price]);
    else if (replaces) out[out.length - 1] = [time, price];
  };
  let m = 0;
  const putMarkersUpTo = (time: number): void => {
    for (; m < markers.length && (markers[m] as ChartMarker).time <= time; m++)
      put((markers[m] as ChartMarker).time, (markers[m] as ChartMarker).price, true);
  };
  for (const [time, price] of points) {
    putMarkersUpTo(time);
    put(time, price, false);
  }
  putMarkersUpTo(Number.POSITIVE_INFINITY);
  return out;
}

/**
 * The stride of the fill markers of a sym: 1 up to {@link MAX_FILL_MARKERS} fills, else the
 * smallest k for which every k-th buy and every k-th sell (the first of each side, the (k+1)-th,
 * ...) fit together. Each side is thinned in its own order, so a strategy whose buys and sells
 * alternate keeps both sides drawn in proportion (every k-th fill of both would, for an even k,
 * draw only its buys).
 * @param buys - buy fills of the sym
 * @param sells - sell fills of the sym
 * @returns k >= 1
 */
export function markerStride(buys: number, sells: number): number {
  let k = Math.max(1, Math.ceil((buys + sells) / MAX_FILL_MARKERS));
  while (Math.ceil(buys / k) + Math.ceil(sells / k) > MAX_FILL_MARKERS) k++;
  return k;
}

/**
 * Builds the chart data of a result: one price line per sym with its fills as markers (every
 * k-th buy and every k-th sell when a sym has more than {@link MAX_FILL_MARKERS} fills, see
 * {@link markerStride}), equity and drawdown. The line is the result's sampled prices (bucket
 * closes) with each drawn fill's own (time, price) put in, so a marker sits on the line at its
 * fill's second; on bar data each bucket's bar range goes with it. Reads the fills twice (count, then pick), holding only the markers drawn.
 * @param result - the backtest result
 * @returns the data the report's script draws
 */
export function chartData(result: BacktestResult): ChartData {
  const counts = new Map<string, { buys: number; sells: number }>();
  for (const f of result.fills) {
    const count = counts.get(f.sym) ?? { buys: 0, sells: 0 };
    if (f.side === 'BUY') count.buys++;
    else count.sells++;
    counts.set(f.sym, count);
  }
  const series = result.prices.map((s) => {
    const { buys, sells } = counts.get(s.sym) ?? { buys: 0, sells: 0 };
    return {
      sym: s.sym,
      points: toChartPoints(s.points.map((p: PricePoint) => [p.ts, p.price] as const)),
      ranges: toChartRanges(s.points),
      markers: [] as ChartMarker[],
      fillCount: buys + sells,
      buyCount: buys,
      stride: markerStride(buys, sells),
      seenBuys: 0,
      seenSells: 0,
    };
  });
  const bySym = new Map(series.map((s) => [s.sym, s]));
  for (const f of result.fills) {
    const s = bySym.get(f.sym);
    if (s === undefined) continue;
    const seen = f.side === 'BUY' ? s.seenBuys++ : s.seenSells++;
    if (seen % s.stride === 0) s.markers.push(markerOf(f));
  }
  return {
    prices: series.map(({ sym, points, ranges, markers, fillCount, buyCount, stride }) => {
      // Stable: fills of one second stay in execution order, the last one's price on the line.
      const sorted = markers.sort((a, b) => a.time - b.time);
      return {
        sym,
        points: withFillPoints(points, sorted),
        ranges,
        markers: sorted,
        fillCount,
        buyCount,
        stride,
      };
    }),
    equity: toChartPoints(result.equityCurve.map((s) => [s.ts, s.equity.toNumber()] as const)),
    drawdown: toChartPoints(
      drawdownSeries(result.equityCurve).map((d) => [d.ts, -d.drawdown * 100] as const),
    ),
  };
}
