import { BAR_INTERVAL_MS, type BarEvent } from '../../core/model/index.ts';
import type { SimOrder } from './sim-order.ts';
import type { SimState } from './sim-state.ts';

/**
 * Whether a sym is a US equity, the only instruments with trading hours (crypto trades 24/7).
 * @param state - the venue
 * @param sym - the symbol
 * @returns true for a US equity
 */
export function hasTradingHours(state: SimState, sym: string): boolean {
  return state.opts.instruments.get(sym)?.id.kind === 'equity';
}

/**
 * Whether an order may match now: any order of a 24/7 instrument; a US equity order only inside
 * the regular session, or with `extendedTrading` inside the extended one (spec: "Allow pre-market
 * and after-hours trading. Default false"); an order of the end-of-run close at any time.
 * @param state - the venue
 * @param order - the order
 * @returns true when it may take or be filled at `state.now`
 */
export function inSession(
  state: SimState,
  order: Pick<SimOrder, 'sym' | 'extendedTrading' | 'ignoresTradingHours'>,
): boolean {
  return (
    !hasTradingHours(state, order.sym) ||
    order.ignoresTradingHours ||
    state.equityHours.openAt(state.now, order.extendedTrading)
  );
}

/**
 * Whether an order may match a bar: any order of a 24/7 instrument; a US equity order only when
 * its session meets the bar's span (a daily bar of a weekday meets the regular session, a
 * pre-market minute bar only the extended one); an order of the end-of-run close any bar.
 * @param state - the venue
 * @param order - the order (algo orders and held conditional orders watch every bar)
 * @param bar - the bar about to be matched
 * @returns true when it takes part in the bar
 */
export function inSessionDuring(
  state: SimState,
  order: Pick<SimOrder, 'sym' | 'extendedTrading' | 'ignoresTradingHours'>,
  bar: BarEvent,
): boolean {
  if (!hasTradingHours(state, order.sym) || order.ignoresTradingHours) return true;
  const end = bar.openTime + BAR_INTERVAL_MS[bar.interval];
  return state.equityHours.openDuring(bar.openTime, end, order.extendedTrading);
}
