import type { BarEvent } from '../../core/model/index.ts';

/**
 * A closed daily bar as a Yahoo-style import stamps it (from one exchange midnight to the next),
 * received at its close.
 * @param sym - the instrument
 * @param openIso - the bar's open, ISO date-time with zone
 * @param closeIso - the bar's close and receive time, ISO date-time with zone
 * @param ohlc - open, high, low, close
 * @returns the bar event, volume 1e6
 */
export function aDailyBar(
  sym: string,
  openIso: string,
  closeIso: string,
  ohlc: readonly [number, number, number, number],
): BarEvent {
  const [open, high, low, close] = ohlc;
  const ts = Date.parse(closeIso);
  return {
    kind: 'bar',
    sym,
    ts,
    recvTs: ts,
    interval: '1d',
    openTime: Date.parse(openIso),
    open,
    high,
    low,
    close,
    volume: 1e6,
    closed: true,
  };
}
