import { describe, expect, it } from 'vitest';
import { listFeed } from '../../../backtest/paper-venue/index.ts';
import { aPaperVenue, closedAfterEachTest, T0 } from '../../kit/paper-venue-builders.ts';
import {
  bboPush,
  type CollectingSocket,
  loggedIn,
  openCollecting,
  signedRest,
} from '../../kit/paper-venue-client.ts';
import { fakeTimer } from '../../kit/venue-fake-timer.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const opened = closedAfterEachTest();

const marketBuy = (clientOrderId: string) => ({
  sym: BTC,
  side: 'BUY',
  orderType: 'MARKET',
  orderQty: '1',
  clientOrderId,
});

/**
 * A lockstep venue on BTC quotes at T0, T0+1000 and T0+2000 with an order-entry delay, on a wall
 * clock that never moves (no stall bound can fire), its first quote released to a subscribed
 * market-data socket, and a logged-in private socket.
 */
async function lockstepVenue(delayMs: number) {
  const v = await aPaperVenue({
    feed: listFeed([
      bboPush(BTC, '100.0', '100.1', T0),
      bboPush(BTC, '98.9', '99.0', T0 + 1000),
      bboPush(BTC, '99.5', '99.6', T0 + 2000),
    ]),
    pacing: { mode: 'lockstep' },
    timer: fakeTimer(Date.now()),
    latency: { orderEntry: { fixedMs: delayMs, jitterMs: 0 }, marketData: { fixedMs: 0, jitterMs: 0 } },
  });
  opened.venue = v;
  const market: CollectingSocket = await openCollecting(`${v.marketDataWsUrl}?binary=false`);
  opened.sockets.push(market);
  market.send({ event: 'subscribe', arg: [{ channel: 'BBO', sym: BTC }] });
  await market.waitFor((f) => f?.event === 'subscribe');
  const priv = await loggedIn(v.privateWsUrl, v, true);
  opened.sockets.push(priv);
  priv.send({ action: 'lockstep_ack', args: { seq: 0 } });
  await market.waitFor((f) => f?.seq === 1);
  return { v, market, priv };
}

/** Places a market BUY on the private socket; resolves with its reply. */
function place(priv: CollectingSocket, ref: string) {
  priv.send({ action: 'place_order', id: ref, args: marketBuy(ref) });
  return priv.waitFor((f) => f?.id === ref, 3000);
}

async function createAt(v: Awaited<ReturnType<typeof lockstepVenue>>['v'], ref: string) {
  const order = await signedRest(v, 'GET', '/api/v1/trading/order', { clientOrderId: ref });
  return (order.body.data as { createAt: number }).createAt - T0;
}

describe('a lockstep client that holds a command behind an unanswered one (a `held` ack, Keel extension)', () => {
  it('gets the command it waits for run before the next event, and what it held counts as sent with it', async () => {
    const { v, market, priv } = await lockstepVenue(200);
    const first = place(priv, 'close');
    // Handled event 1 (T0), but holds a command behind `close`: no stall bound on a frozen wall clock.
    priv.send({ action: 'lockstep_ack', args: { seq: 1, held: true } });
    expect(await first).toMatchObject({ code: 0 });
    expect(v.feed.released).toBe(1);
    // Sent once `close` was answered, made with it at T0: it reaches the book right behind it.
    expect(await place(priv, 'reverse')).toMatchObject({ code: 0 });
    priv.send({ action: 'lockstep_ack', args: { seq: 1 } });
    await market.waitFor((f) => f?.seq === 2);
    expect([await createAt(v, 'close'), await createAt(v, 'reverse')]).toEqual([200, 200]);
    // The plain ack ended the hold: the next command counts from the venue's time again (T0+1000).
    const after = place(priv, 'after');
    priv.send({ action: 'lockstep_ack', args: { seq: 2 } });
    expect(await after).toMatchObject({ code: 0 });
    expect(await createAt(v, 'after')).toBe(1200);
  });

  it('releases the next event first when the command waited for is due after it, as in a backtest', async () => {
    const { v, market, priv } = await lockstepVenue(1500);
    const first = place(priv, 'close');
    priv.send({ action: 'lockstep_ack', args: { seq: 1, held: true } });
    await market.waitFor((f) => f?.seq === 2);
    expect(priv.frames.some((f) => f.includes('"id":"close"'))).toBe(false);
    // Event 2 (T0+1000) handled, still holding: the venue moves to T0+1500 and runs `close`.
    priv.send({ action: 'lockstep_ack', args: { seq: 2, held: true } });
    expect(await first).toMatchObject({ code: 0 });
    expect(v.feed.released).toBe(2);
    expect(await place(priv, 'reverse')).toMatchObject({ code: 0 });
    priv.send({ action: 'lockstep_ack', args: { seq: 2 } });
    await market.waitFor((f) => f?.seq === 3);
    expect([await createAt(v, 'close'), await createAt(v, 'reverse')]).toEqual([1500, 1500]);
  });
});
