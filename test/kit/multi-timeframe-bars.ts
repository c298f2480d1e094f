import { z } from 'zod';
import { defineStrategy } from '../../core/kernel/index.ts';
import type { BarEvent, BarInterval, MarketEvent } from '../../core/model/index.ts';
import { BAR_INTERVAL_MS } from '../../core/model/index.ts';
import { BTC } from './kernel-events.ts';

/**
 * A closed BTC bar of `interval` opening at `openTime`, stamped (and received) at its close.
 * @returns the bar event
 */
export function closedBtcBar(
  interval: BarInterval,
  openTime: number,
  o: number,
  h: number,
  l: number,
  c: number,
  v: number,
): BarEvent {
  const ts = openTime + BAR_INTERVAL_MS[interval];
  return {
    kind: 'bar',
    sym: BTC,
    ts,
    recvTs: ts,
    interval,
    openTime,
    open: o,
    high: h,
    low: l,
    close: c,
    volume: v,
    closed: true,
  };
}

/**
 * History that is one batch of events (a warm-up's `history`).
 * @param events - the events, in time order
 */
export async function* oneBatch(events: readonly MarketEvent[]): AsyncGenerator<readonly MarketEvent[]> {
  yield events;
}

/**
 * A 1h trend filter + 5m entries on BTC: watches 1h and 5m and logs every bar it gets as
 * `<interval>@<minutes after t0>[ warm][ partial] o… h… l… c… v…`.
 * @param log - where the lines go
 * @param t0 - the time the minutes count from
 */
export function multiTimeframeBarLog(log: string[], t0: number) {
  return defineStrategy({
    name: 'mtf',
    params: z.object({}),
    onStart: (ctx) => {
      ctx.watchBars(BTC, '1h');
      ctx.watchBars(BTC, '5m');
    },
    onBar: (ctx, b) => {
      log.push(
        `${b.interval}@${(b.openTime - t0) / 60_000}${ctx.warmingUp ? ' warm' : ''}${b.partial ? ' partial' : ''} o${b.open} h${b.high} l${b.low} c${b.close} v${b.volume}`,
      );
    },
  });
}
