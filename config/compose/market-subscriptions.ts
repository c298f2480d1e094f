import { type BarInterval, type InstrumentSpec, isPerpetual } from '../../core/model/index.ts';
import type { MarketSubscription } from '../../core/venue/index.ts';

/** The kline intervals a paper or live session subscribes to (see {@link sessionSubscriptions}). */
export const SESSION_KLINE_INTERVALS: readonly BarInterval[] = ['1m'];

const EVERY_SYM = [
  { channel: 'BBO' },
  { channel: 'TRADE' },
  ...SESSION_KLINE_INTERVALS.map((interval) => ({ channel: 'KLINE' as const, interval })),
] as const;

/**
 * The market data a paper or live session, or `keel record`, subscribes to: BBO, trades and 1m
 * bars of every instrument, and the MARK_PRICE of each perpetual (the venue has it for
 * perpetuals only, per public venue docs). Mark prices let a strategy and its `triggerOn: 'mark'`
 * trailing stops follow the mark, and a recording that keeps them (with their funding rate and next
 * funding time) gives its backtest the venue's marks and funding settlements.
 * @param instruments - the run's instruments
 * @returns the subscriptions, instrument by instrument
 */
export function sessionSubscriptions(instruments: readonly InstrumentSpec[]): MarketSubscription[] {
  return instruments.flatMap((spec) => [
    ...EVERY_SYM.map((c) => ({ ...c, sym: spec.sym })),
    ...(isPerpetual(spec.id) ? [{ channel: 'MARK_PRICE' as const, sym: spec.sym }] : []),
  ]);
}
