import { describe, expect, it } from 'vitest';
import { BarAggregator } from '../../../core/kernel/bar-aggregator.ts';
import type { BarEvent, MarketTradeEvent } from '../../../core/model/index.ts';

const M = 60_000;
const trade = (ts: number, price: number): MarketTradeEvent => ({
  kind: 'trade',
  sym: 'BTCUSDT',
  ts,
  recvTs: ts,
  tradeId: `t${ts}`,
  price,
  qty: 1,
  side: 'BUY',
});
const kline = (openTime: number, vol: number): BarEvent => {
  const ts = openTime + M + 6; // stamped when received, 6 ms after its close
  return {
    kind: 'bar',
    sym: 'BTCUSDT',
    ts,
    recvTs: ts,
    interval: '1m',
    openTime,
    open: 100,
    high: 100,
    low: 100,
    close: 100,
    volume: vol,
    closed: true,
  };
};

describe('recording of trades + 1m klines starting in the last minute of a 5m bar', () => {
  it('does not call the first 1m kline late', () => {
    const agg = new BarAggregator();
    agg.watch('BTCUSDT', '5m');
    const out: BarEvent[] = [];
    const emit = (b: BarEvent) => out.push(b);
    const events: (MarketTradeEvent | BarEvent)[] = [
      trade(4 * M + 30_000, 100), // the recording starts at 00:04:30
      trade(4 * M + 45_000, 100),
      trade(5 * M + 1, 100), // first trade of 00:05, received before the 00:04 kline (stamped 00:05:00.006)
    ];
    for (let m = 4; m < 11; m++) events.push(kline(m * M, 2));
    events.sort((a, b) => a.recvTs - b.recvTs);
    for (const e of events) {
      agg.closeDue(e.ts, emit);
      if (e.kind === 'trade') agg.onTrade(e, emit);
      else agg.onFinerBar(e, emit);
    }
    expect(out.map((b) => [b.openTime / M, b.volume])).toEqual([
      [0, 2],
      [5, 10],
    ]);
    expect(agg.late()).toEqual([]);
  });

  it('still counts a first 1m kline of a minute the closed bar had no trade in', () => {
    const agg = new BarAggregator();
    agg.watch('BTCUSDT', '5m');
    const out: BarEvent[] = [];
    const emit = (b: BarEvent) => out.push(b);
    agg.onTrade(trade(2 * M + 30_000, 100), emit);
    agg.closeDue(5 * M + 1, emit);
    agg.onTrade(trade(5 * M + 1, 100), emit);
    agg.onFinerBar(kline(4 * M, 2), emit);
    expect(out.map((b) => [b.openTime / M, b.volume])).toEqual([[0, 1]]);
    expect(agg.late()).toEqual([
      { sym: 'BTCUSDT', interval: '5m', from: '1m', reason: 'late', count: 1, firstTs: 5 * M + 6 },
    ]);
  });
});
