import { nextUsEquitySessionOpen } from '../../core/kernel/index.ts';
import { UsEquityHours } from '../sim/index.ts';

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

/**
 * US equities' regular session, 09:30-16:00 New York on weekdays, as the simulated venue keeps it
 * (its `UsEquityHours`: core/kernel's sessions, daylight saving time included, looked up once a
 * minute; no holiday calendar).
 */
export function usRegularHours(): TradingHours {
  const hours = new UsEquityHours();
  return {
    isOpen: (ts) => hours.openAt(ts, false),
    nextOpen: (ts) => (hours.openAt(ts, false) ? ts : nextUsEquitySessionOpen(ts)),
  };
}
