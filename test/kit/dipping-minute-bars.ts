const MIN = 60_000;

/** The symbol of {@link DIPPING_BARS}. */
export const DIP_SYM = 'BINANCE_PERP_BTC_USDT';
/** When bar 0 of {@link DIPPING_BARS} opens. */
export const DIP_T0 = Date.UTC(2025, 2, 3);

/**
 * A closed 1m kline of {@link DIP_SYM} opening `i` minutes after {@link DIP_T0}, received at its
 * close, as a paper venue feed item.
 * @param i - the minute it opens at
 * @param prices - open, high, low, close
 * @returns the feed item (receive time and KLINE message)
 */
export function dipMinuteKline(i: number, [open, high, low, close]: readonly number[]) {
  return {
    recvTs: DIP_T0 + (i + 1) * MIN,
    msg: {
      arg: { channel: 'KLINE', sym: DIP_SYM, interval: '1m' },
      data: {
        openTime: DIP_T0 + i * MIN,
        open: String(open),
        high: String(high),
        low: String(low),
        close: String(close),
        volume: '10',
        closed: true,
        ts: DIP_T0 + (i + 1) * MIN,
      },
    },
  };
}

/** Three 1m bars: flat at 100; bar 1 (received T0+2min) dips to 90 and closes 99.5; bar 2 reaches 97 and closes 98. */
export const DIPPING_BARS = [
  dipMinuteKline(0, [100, 100, 100, 100]),
  dipMinuteKline(1, [100, 100, 90, 99.5]),
  dipMinuteKline(2, [99.5, 99.5, 97, 98]),
];
