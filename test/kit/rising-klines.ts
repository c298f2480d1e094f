import type { RecordedMessage } from '../../backtest/recording/index.ts';

const MIN = 60_000;

/**
 * A closed kline of `minutes` minutes opening `i` minutes after `t0`, received at its close, on a
 * market rising 0.5 % a minute (open 100 x 1.005^i; high +1.5 %, low -0.1 %, close +0.5 %).
 * @param sym - the symbol
 * @param t0 - the time minute 0 opens
 * @param i - the minute the kline opens at
 * @param minutes - its interval, 1 or 5 minutes
 * @returns the recorded KLINE message
 */
export function risingKline(sym: string, t0: number, i: number, minutes: 1 | 5): RecordedMessage {
  const open = 100 * 1.005 ** i;
  const [o, h, l, c] = [open, open * 1.015, open * 0.999, open * 1.005].map((p) => p.toFixed(1));
  const openTime = t0 + i * MIN;
  const ts = openTime + minutes * MIN;
  return {
    recvTs: ts,
    source: 'market-data',
    msg: {
      arg: { channel: 'KLINE', sym, interval: `${minutes}m` },
      data: { openTime, open: o, high: h, low: l, close: c, volume: '10', closed: true, ts },
    },
  };
}
