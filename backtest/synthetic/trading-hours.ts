import { isUsEquitySessionOpen, nextUsEquitySessionOpen } from '../../core/kernel/index.ts';

/** When a synthetic instrument trades: asked for each event scheduled and each bar closed. */
export interface TradingHours {
  /**
   * Whether the market is open at a time.
   * @param ts - epoch ms
   * @returns true inside the hours
   */
  isOpen(ts: number): boolean;
  /**
   * The next opening at or after a time.
   * @param ts - epoch ms
   * @returns `ts` itself when inside the hours, else the next open, epoch ms
   */
  nextOpen(ts: number): number;
}

const MINUTE = 60_000;

/**
 * US equities' regular session, 09:30-16:00 New York on weekdays (core/kernel's
 * `isUsEquitySessionOpen`, so daylight saving time moves it in UTC as it moves the simulated
 * venue's sessions; no holiday calendar). The session changes only on whole minutes, so the
 * answer is looked up once a minute, not once an event.
 */
export function usRegularHours(): TradingHours {
  let minute = Number.NaN;
  let open = false;
  const isOpen = (ts: number): boolean => {
    const m = Math.floor(ts / MINUTE);
    if (m !== minute) {
      minute = m;
      open = isUsEquitySessionOpen(ts);
    }
    return open;
  };
  return {
    isOpen,
    nextOpen: (ts) => (isOpen(ts) ? ts : nextUsEquitySessionOpen(ts)),
  };
}
