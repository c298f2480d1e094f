import { afterEach, describe, expect, it } from 'vitest';
import { type FeedItem, listFeed, type PaperVenue } from '../../../backtest/paper-venue/index.ts';
import type { TimerPort } from '../../../core/venue/index.ts';
import { DIP_SYM, DIP_T0, DIPPING_BARS } from '../../kit/dipping-minute-bars.ts';
import { aPaperVenue } from '../../kit/paper-venue-builders.ts';
import { signedRest } from '../../kit/paper-venue-client.ts';
import { fakeTimer } from '../../kit/venue-fake-timer.ts';

const BTC = DIP_SYM;
const T0 = DIP_T0;
const MIN = 60_000;
// Bar 1 (received T0+2min) dips to 90.
const BARS = DIPPING_BARS;

const BUY = {
  sym: BTC,
  side: 'BUY',
  orderType: 'LIMIT',
  orderQty: '1',
  limitPrice: '95',
  clientOrderId: 'lim',
};

let venue: PaperVenue | undefined;
let open: () => void = () => undefined;
afterEach(async () => {
  open();
  await venue?.close();
  venue = undefined;
});

const sign = () => ({ nonceSeconds: Math.floor((venue as PaperVenue).replayNow() / 1000) });

/** A source slow to give bar 1 (disk or event-loop lag) until `open` is called. */
function slowSecondEvent(): () => AsyncGenerator<FeedItem> {
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const items = listFeed(BARS);
  return async function* () {
    const it = items();
    let n = 0;
    for (;;) {
      const next = await it.next();
      if (next.done) return;
      if (n++ === 1) await gate;
      yield next.value;
    }
  };
}

/** A timer whose callbacks fire 10 s late (a busy event loop): the feed's release of an event due comes late. */
function lateTimers(base: TimerPort): TimerPort {
  return { now: () => base.now(), setTimer: (fn, ms) => base.setTimer(fn, ms + 10_000) };
}

/** The resting buy: filled by bar 1, at bar 1's time as in a backtest. */
async function restingBuyFill(): Promise<{ state: string; updateAt: number }> {
  const read = await signedRest(
    venue as PaperVenue,
    'GET',
    '/api/v1/trading/order',
    { clientOrderId: 'lim' },
    sign(),
  );
  const order = read.body.data as { orderState: string; updateAt: number };
  return { state: order.orderState, updateAt: order.updateAt - T0 };
}

describe('a session timer while the feed is late releasing the next event (realtime pacing)', () => {
  it('moves the venue no further than the next event, read and waiting for its time', async () => {
    const base = fakeTimer(Date.now());
    venue = await aPaperVenue({
      feed: listFeed(BARS),
      pacing: { mode: 'realtime', speed: 1 },
      fillModel: 'bar',
      timer: lateTimers(base),
    });
    await venue.feed.until(1);
    expect((await signedRest(venue, 'POST', '/api/v1/trading/order', BUY, sign())).body.code).toBe(0);
    // The replay's clock is at T0+2min+5s; bar 1 (T0+2min) is read, its release 10 s late.
    await base.advance(65_000);
    expect(venue.feed.released).toBe(1);
    venue.timerFires(venue.replayNow());
    expect(venue.now() - T0).toBe(2 * MIN);
    await base.advance(2 * MIN);
    await venue.feed.until(3);
    expect(await restingBuyFill()).toEqual({ state: 'FILLED', updateAt: 2 * MIN });
  });

  it('does not move the venue while the source has not given the next event', async () => {
    const timer = fakeTimer(Date.now());
    venue = await aPaperVenue({
      feed: slowSecondEvent(),
      pacing: { mode: 'realtime', speed: 1 },
      fillModel: 'bar',
      timer,
    });
    await venue.feed.until(1);
    expect((await signedRest(venue, 'POST', '/api/v1/trading/order', BUY, sign())).body.code).toBe(0);
    await timer.advance(65_000);
    // Bar 1 (T0+2min) is due but not given yet; a timer at T0+2min+5s fires (it sends nothing).
    venue.timerFires(venue.replayNow());
    expect(venue.now() - T0).toBe(MIN);
    open();
    await timer.advance(2 * MIN);
    await venue.feed.until(3);
    expect(await restingBuyFill()).toEqual({ state: 'FILLED', updateAt: 2 * MIN });
  });
});
