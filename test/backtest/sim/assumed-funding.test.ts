import { describe, expect, it } from 'vitest';
import type { BarEvent, MarketEvent } from '../../../core/model/index.ts';
import { aMark, aMarket, aQuote, aSim, BTC } from '../../kit/sim-builders.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const D0 = Date.UTC(2025, 0, 6);

/** A closed daily bar of BTC opening at `openTime`, flat at 100, received at its close. */
function aDailyBar(openTime: number): BarEvent {
  return {
    kind: 'bar',
    sym: BTC,
    ts: openTime + DAY,
    recvTs: openTime + DAY,
    interval: '1d',
    openTime,
    open: 100,
    high: 101,
    low: 99,
    close: 100,
    volume: 10,
    closed: true,
  };
}

/** The funding times paid on with funding data, and those counted without it, of one scripted run. */
function run(
  events: readonly MarketEvent[],
  orders: readonly { readonly at: number; readonly side: 'BUY' | 'SELL' }[],
  fillModel: 'bar' | 'through',
) {
  const t = aSim({ fillModel });
  let sent = 0;
  for (const event of events) {
    for (; sent < orders.length && (orders[sent] as { at: number }).at <= event.recvTs; sent++) {
      const order = orders[sent] as { at: number; side: 'BUY' | 'SELL' };
      t.sim.advanceTo(order.at);
      t.send(aMarket(`o${sent}`, order.side, '1'));
    }
    t.sim.onMarket(event);
  }
  return t;
}

describe('SimVenue.unfundedHolds', () => {
  it('on daily bars counts the funding times a run with marks inside the bars pays on (not those of the day a position opened at the open)', () => {
    const bars = [aDailyBar(D0 - DAY), aDailyBar(D0), aDailyBar(D0 + DAY), aDailyBar(D0 + 2 * DAY)];
    // Bought when the day opened at D0 (filled at its open), sold when the next day opened.
    const orders = [
      { at: D0, side: 'BUY' as const },
      { at: D0 + DAY, side: 'SELL' as const },
    ];
    const marks = Array.from({ length: 3 * 3 }, (_, k) =>
      aMark(D0 + k * 8 * HOUR + HOUR, 100, { rate: 0.001, next: D0 + (k + 1) * 8 * HOUR }),
    );
    const byTime = (a: MarketEvent, b: MarketEvent) => a.recvTs - b.recvTs;
    const funded = run([...bars, ...marks].sort(byTime), orders, 'bar');
    const unfunded = run(bars, orders, 'bar');
    const paid = funded.sim
      .statement()
      .filter((flow) => flow.type === 'FUNDING_FEE')
      .map((flow) => flow.ts);
    expect(paid).toEqual([D0 + DAY, D0 + DAY + 8 * HOUR, D0 + DAY + 16 * HOUR]);
    expect(unfunded.sim.unfundedHolds().get(BTC)).toEqual(paid);
    expect(funded.sim.unfundedHolds().get(BTC) ?? []).toEqual([]);
  });

  it('on quotes counts a funding time a position was held at after the commands arriving at it', () => {
    const F = D0 + 8 * HOUR;
    const quotes = [aQuote(F - 10, 99, 5, 101, 5), aQuote(F, 99, 5, 101, 5), aQuote(F + 10, 99, 5, 101, 5)];
    const held = (orders: { at: number; side: 'BUY' | 'SELL' }[]) =>
      run(quotes, orders, 'through').sim.unfundedHolds().get(BTC) ?? [];
    expect(held([{ at: F, side: 'BUY' }])).toEqual([F]);
    expect(held([{ at: F + 1, side: 'BUY' }])).toEqual([]);
    expect(
      held([
        { at: F - 10, side: 'BUY' },
        { at: F, side: 'SELL' },
      ]),
    ).toEqual([]);
    expect(
      held([
        { at: F - 10, side: 'BUY' },
        { at: F + 1, side: 'SELL' },
      ]),
    ).toEqual([F]);
  });
});
