import { BAR_INTERVAL_MS, type BarInterval } from '../../core/model/index.ts';
import type { OhlcvBar } from './ohlcv-bar.ts';

/**
 * A KLINE push in the venue's wire shape (`core/venue/market-data`, Keel's choice of shape;
 * backtest/ may not import core/venue, so it is written here again and a test decodes it with
 * the venue decoder).
 */
export interface KlineMessage {
  readonly arg: { readonly channel: 'KLINE'; readonly sym: string; readonly interval: BarInterval };
  readonly data: {
    readonly openTime: number;
    readonly open: string;
    readonly high: string;
    readonly low: string;
    readonly close: string;
    readonly volume: string;
    readonly closed: true;
    /** Close time: openTime + interval. */
    readonly ts: number;
  };
}

/**
 * The closed-bar KLINE push of an imported bar.
 * @param sym - the symbol the bars belong to
 * @param interval - the bar interval
 * @param bar - the bar
 * @returns the message as the venue would send it when the bar closes
 */
export function klineMessage(sym: string, interval: BarInterval, bar: OhlcvBar): KlineMessage {
  return {
    arg: { channel: 'KLINE', sym, interval },
    data: {
      openTime: bar.openTime,
      open: bar.open,
      high: bar.high,
      low: bar.low,
      close: bar.close,
      volume: bar.volume,
      closed: true,
      ts: bar.openTime + BAR_INTERVAL_MS[interval],
    },
  };
}
