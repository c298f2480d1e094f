import { describe, expect, it } from 'vitest';
import { BarAggregator } from '../../../core/kernel/bar-aggregator.ts';
import type { BarEvent } from '../../../core/model/index.ts';

const M = 60_000;
function k(interval: '1m' | '5m', openTime: number, vol: number, delay = 6): BarEvent {
  const ms = interval === '1m' ? M : 5 * M;
  const ts = openTime + ms + delay;
  return {
    kind: 'bar',
    sym: 'BTCUSDT',
    ts,
    recvTs: ts,
    interval,
    openTime,
    open: 100,
    high: 101,
    low: 99,
    close: 100,
    volume: vol,
    closed: true,
  };
}

describe('a feed sending 1m and 5m klines together, one quiet minute', () => {
  it('does not warn that a 5m kline was left out when the 1m klines held all it held', () => {
    const agg = new BarAggregator();
    agg.watch('BTCUSDT', '15m');
    const out: BarEvent[] = [];
    const emit = (b: BarEvent) => out.push(b);
    const feed = (b: BarEvent) => {
      agg.closeDue(b.ts, emit);
      agg.onFinerBar(b, emit);
    };
    // Minutes 0..13 traded (volume 1 each); minute 14 had no trade, so no 1m kline for it.
    for (let m = 0; m < 15; m++) {
      if (m !== 14) feed(k('1m', m * M, 1));
      if (m % 5 === 4) feed(k('5m', (m - 4) * M, m === 14 ? 4 : 5, 7)); // 5m kline just after the 1m one
    }
    feed(k('1m', 15 * M, 1));
    expect(out.map((b) => [b.openTime, b.volume])).toEqual([[0, 14]]);
    // The 15m bar has everything (14 = 5 + 5 + 4): nothing was left out and the feed never switched.
    expect(agg.late()).toEqual([]);
  });

  it('still counts the 5m kline when the run ends with the 1m klines stopped short of its end', () => {
    const agg = new BarAggregator();
    agg.watch('BTCUSDT', '15m');
    const out: BarEvent[] = [];
    const emit = (b: BarEvent) => out.push(b);
    for (let m = 0; m < 14; m++) agg.onFinerBar(k('1m', m * M, 1), emit);
    for (let p = 0; p < 3; p++) agg.onFinerBar(k('5m', p * 5 * M, 5, 7), emit);
    agg.closeDue(Number.MAX_SAFE_INTEGER, emit);
    expect(out.map((b) => [b.openTime, b.volume])).toEqual([[0, 14]]);
    expect(agg.late()).toEqual([
      { sym: 'BTCUSDT', interval: '15m', from: '5m', reason: 'overlap', count: 1, firstTs: 15 * M + 7 },
    ]);
  });

  it('counts it once when the feed then switches to 5m klines', () => {
    const agg = new BarAggregator();
    agg.watch('BTCUSDT', '15m');
    const out: BarEvent[] = [];
    const emit = (b: BarEvent) => out.push(b);
    for (let m = 0; m < 14; m++) agg.onFinerBar(k('1m', m * M, 1), emit);
    for (let p = 0; p < 6; p++) agg.onFinerBar(k('5m', p * 5 * M, 5, 7), emit);
    agg.closeDue(Number.MAX_SAFE_INTEGER, emit);
    expect(out.map((b) => [b.openTime, b.volume])).toEqual([
      [0, 14],
      [15 * M, 15],
    ]);
    expect(agg.late()).toEqual([
      { sym: 'BTCUSDT', interval: '15m', from: '5m', reason: 'overlap', count: 1, firstTs: 15 * M + 7 },
    ]);
  });
});
