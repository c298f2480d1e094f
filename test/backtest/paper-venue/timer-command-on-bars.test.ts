import { afterEach, describe, expect, it } from 'vitest';
import { listFeed, type PaperVenue } from '../../../backtest/paper-venue/index.ts';
import { DIP_SYM, DIP_T0, DIPPING_BARS } from '../../kit/dipping-minute-bars.ts';
import { aPaperVenue } from '../../kit/paper-venue-builders.ts';
import { signedRest } from '../../kit/paper-venue-client.ts';
import { fakeTimer } from '../../kit/venue-fake-timer.ts';

const BTC = DIP_SYM;
const T0 = DIP_T0;
const MIN = 60_000;
/** Bar 1's low 90 passes a stop at 98; bar 2 reaches it again at 97. */
const BARS = DIPPING_BARS;

const STOP = {
  sym: BTC,
  side: 'SELL',
  algoOrderType: 'TRIGGER',
  conditionType: 'LTE',
  triggerPrice: '98',
  triggerType: 'LastPrice',
  price: '0',
  qty: '1',
  clientAlgoOrderId: 'stop',
};

let venue: PaperVenue | undefined;
afterEach(async () => {
  await venue?.close();
  venue = undefined;
});

/**
 * A realtime venue at speed 1 on {@link BARS}, bar 0 released; 30 s of replay later (inside bar
 * 1), a session's timer fires (told to the venue when `told`) and sends a SELL stop at 98.
 * @returns the stop as the venue reports it once bar 2 was released
 */
async function stopPlacedInsideBar1(told: boolean) {
  const timer = fakeTimer(Date.now());
  venue = await aPaperVenue({
    feed: listFeed(BARS),
    pacing: { mode: 'realtime', speed: 1 },
    fillModel: 'bar',
    timer,
  });
  await venue.feed.until(1);
  await timer.advance(30_000);
  expect(venue.replayNow()).toBe(T0 + MIN + 30_000);
  if (told) venue.timerFires(T0 + MIN + 30_000);
  // Signed on the replay's clock, as the venue's Date header tells it.
  const signing = { nonceSeconds: Math.floor(venue.replayNow() / 1000) };
  const placed = await signedRest(venue, 'POST', '/api/v1/algo/order', STOP, signing);
  expect(placed.body).toMatchObject({ code: 0 });
  await timer.advance(2 * MIN);
  await venue.feed.until(3);
  const read = await signedRest(
    venue,
    'GET',
    '/api/v1/algo/order',
    { clientAlgoOrderId: 'stop' },
    { nonceSeconds: Math.floor(venue.replayNow() / 1000) },
  );
  const stop = read.body.data as { algoOrderState: string; createAt: number; updateAt: number };
  return { state: stop.algoOrderState, createAt: stop.createAt - T0, updateAt: stop.updateAt - T0 };
}

describe('a realtime paper venue told of a session timer inside a bar (default paper: no lockstep, no latency)', () => {
  it('runs the stop the timer sends at the timer time: it sits the bar out and triggers on the next, as a backtest', async () => {
    // The backtest: made at T0+90 s, after bar 1 opened, so bar 1's low 90 came before it; bar
    // 2 triggers it, at its close.
    expect(await stopPlacedInsideBar1(true)).toEqual({
      state: 'TRIGGERED',
      createAt: MIN + 30_000,
      updateAt: 3 * MIN,
    });
  });

  it('without the timer told, runs it at the last bar it matched (what a command sent on that bar gets)', async () => {
    expect(await stopPlacedInsideBar1(false)).toEqual({
      state: 'TRIGGERED',
      createAt: MIN,
      updateAt: 2 * MIN,
    });
  });

  it('never moves past its own running time nor back', async () => {
    const timer = fakeTimer(Date.now());
    venue = await aPaperVenue({ feed: listFeed(BARS), pacing: { mode: 'realtime', speed: 1 }, timer });
    await venue.feed.until(1);
    await timer.advance(10_000);
    venue.timerFires(T0 + 5 * MIN);
    expect(venue.now()).toBe(T0 + MIN + 10_000);
    venue.timerFires(T0 + MIN + 5_000);
    expect(venue.now()).toBe(T0 + MIN + 10_000);
  });
});
