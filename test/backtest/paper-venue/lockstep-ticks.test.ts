import { describe, expect, it } from 'vitest';
import { aPaperVenue, closedAfterEachTest, T0 } from '../../kit/paper-venue-builders.ts';
import { type CollectingSocket, loggedIn, openCollecting, signedRest } from '../../kit/paper-venue-client.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const opened = closedAfterEachTest();

/** A lockstep venue on the scripted feed, a market-data socket subscribed to BTC BBO and a logged-in private socket. */
async function lockstepVenue() {
  const v = await aPaperVenue({ pacing: { mode: 'lockstep' } });
  opened.venue = v;
  const market: CollectingSocket = await openCollecting(`${v.marketDataWsUrl}?binary=false`);
  opened.sockets.push(market);
  market.send({ event: 'subscribe', arg: [{ channel: 'BBO', sym: BTC }] });
  await market.waitFor((f) => f?.event === 'subscribe');
  const priv = await loggedIn(v.privateWsUrl, v, true);
  opened.sockets.push(priv);
  return { v, market, priv };
}

describe('paper venue lockstep ticks to the client timers (Keel extension)', () => {
  it('moves to the wake-up time the ack names before releasing a later event, so an order sent then meets the book of that time', async () => {
    const { v, market, priv } = await lockstepVenue();
    // The client's timer is due at T0 + 500: after the first BTC quote (T0), before the next (T0 + 1000).
    priv.send({ action: 'lockstep_ack', args: { seq: 0, wakeAt: T0 + 500, tick: 0 } });
    await market.waitFor((f) => f?.seq === 1);
    priv.send({ action: 'lockstep_ack', args: { seq: 1, wakeAt: T0 + 500, tick: 0 } });
    const tick = await market.waitFor((f) => f?.event === 'lockstep_time');
    expect(tick).toMatchObject({ time: T0 + 500, tick: 1, code: 0 });
    expect(v.now()).toBe(T0 + 500);
    // Event 2 (AAPL, nobody subscribed) went; the BTC quote of T0 + 1000 waits for the tick's ack.
    expect(v.feed.released).toBe(2);
    const placed = await signedRest(v, 'POST', '/api/v1/trading/order', {
      sym: BTC,
      side: 'BUY',
      orderType: 'LIMIT',
      orderQty: '1',
      limitPrice: '100.1',
      clientOrderId: 'on-tick',
    });
    expect(placed.body.code).toBe(0);
    priv.send({ action: 'lockstep_ack', args: { seq: 1, wakeAt: null, tick: 1 } });
    await market.waitFor((f) => f?.seq === 3);
    const order = await signedRest(v, 'GET', '/api/v1/trading/order', { clientOrderId: 'on-tick' });
    // Filled at the ask of T0 (100.1), not at the 99.0 of the quote released after the tick.
    expect(order.body.data).toMatchObject({
      orderState: 'FILLED',
      executedAvgPrice: '100.1',
      createAt: T0 + 500,
      updateAt: T0 + 500,
    });
  });

  it('sends no tick to a client whose acks name no wake-up time', async () => {
    const { v, market, priv } = await lockstepVenue();
    priv.send({ action: 'lockstep_ack', args: { seq: 0 } });
    await market.waitFor((f) => f?.seq === 1);
    priv.send({ action: 'lockstep_ack', args: { seq: 1 } });
    await market.waitFor((f) => f?.seq === 3);
    expect(market.frames.some((f) => f.includes('lockstep_time'))).toBe(false);
    expect(v.now()).toBe(T0 + 1000);
  });
});
