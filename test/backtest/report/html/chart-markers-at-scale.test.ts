import { describe, expect, it } from 'vitest';
import { chartData } from '../../../../backtest/report/html/chart-data.ts';
import { renderHtmlReport } from '../../../../backtest/report/html/render-report.ts';
import { runBacktest } from '../../../../backtest/runner/index.ts';
import { seededRandom } from '../../../../core/kernel/index.ts';
import { D } from '../../../../core/model/index.ts';
import { RiskGate } from '../../../../core/risk/index.ts';
import { smaCross } from '../../../../strategies/sma-cross.ts';
import { barsRecordingIn, decodeMarketRecord } from '../../../kit/bar-recordings.ts';
import { anInstrument } from '../../../kit/instrument-builders.ts';
import { tempDirsRemovedAfterAll } from '../../../kit/temp-dirs.ts';

// A 20 000-bar (1m, ~14 days) SMA-cross backtest: the equity sampler's buckets widen past 1
// minute, so the report's price line holds each bucket's close. Each drawn fill's own time and
// price go into that line, so a marker sits at its fill rather than at a sampled point minutes
// earlier, and the page says the line is sampled.
const SYM = 'BINANCE_PERP_BTC_USDT';
const aTempDir = tempDirsRemovedAfterAll('keel-scale-markers-');

describe('fill markers of a long bar backtest', () => {
  it('are drawn at the time of their fill', async () => {
    const random = seededRandom(42);
    let price = 40_000;
    const rows: number[][] = [];
    for (let i = 0; i < 20_000; i++) {
      const open = price;
      price = Math.round(price * (1 + (random.next() - 0.5) * 0.004) * 10) / 10;
      rows.push([open, Math.max(open, price) + 5, Math.min(open, price) - 5, price]);
    }
    const path = await barsRecordingIn(aTempDir(), rows, Date.UTC(2024, 0, 1), SYM);
    const result = await runBacktest({
      recordings: [path],
      decode: decodeMarketRecord,
      instruments: [anInstrument(SYM)],
      strategies: [
        { id: 'sma', strategy: smaCross, params: { sym: SYM, fast: 10, slow: 30, fraction: 0.5 } },
      ],
      gate: new RiskGate(),
      startingCash: D(100_000),
      fillModel: 'bar',
      closeAtEnd: true,
    });
    try {
      const fills = [...result.fills];
      expect(fills.length).toBeGreaterThan(100);
      expect(fills.length).toBeLessThanOrEqual(2000); // every fill gets a marker: no selection
      const { prices } = chartData(result);
      const markers = prices[0]!.markers;
      expect(markers.length).toBe(fills.length);
      const shifts = fills.map((f, i) => Math.floor(f.timestamp / 1000) - markers[i]!.time);
      const worst = Math.max(...shifts);
      // Each marker at its fill's second (the chart's time unit).
      expect({ worstShiftSeconds: worst, pricePoints: prices[0]!.points.length }).toEqual({
        worstShiftSeconds: 0,
        pricePoints: expect.any(Number),
      });
      // ...and on the line: the line holds each fill's own (time, price), the last fill's of a second.
      const line = new Map(prices[0]!.points);
      const lastOfSecond = new Map(fills.map((f) => [Math.floor(f.timestamp / 1000), f.price.toNumber()]));
      expect([...lastOfSecond].filter(([time, price]) => line.get(time) !== price)).toEqual([]);
      // 20 000 one-minute bars: 4096 buckets at most, widened from 1 min by doubling to 8 min
      // (2500 buckets): the page says the line is those buckets' closes, with the bars' range in
      // each, plus the fill prices.
      expect(result.prices[0]!.bucketMs).toBe(8 * 60_000);
      expect(renderHtmlReport(result)).toContain(
        `${SYM} price [USDT] (bucket closes every 8 min with the low-high range of the 1 min bars in each, plus fill prices) and fills, time in UTC`,
      );
    } finally {
      result.dispose?.();
    }
  }, 120_000);
});
