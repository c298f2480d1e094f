import { describe, expect, it } from 'vitest';
import type { PaperVenue } from '../../../backtest/paper-venue/index.ts';
import { aPaperVenue, closedAfterEachTest } from '../../kit/paper-venue-builders.ts';
import { type CollectingSocket, loggedIn, openCollecting, signedRest } from '../../kit/paper-venue-client.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const opened = closedAfterEachTest();

async function subscribed(v: PaperVenue, query = ''): Promise<CollectingSocket> {
  const socket = await openCollecting(`${v.marketDataWsUrl}${query}`);
  opened.sockets.push(socket);
  socket.send({ event: 'subscribe', arg: [{ channel: 'BBO', sym: BTC }] });
  expect(await socket.waitFor((f) => f?.event === 'subscribe')).toMatchObject({ code: 0 });
  return socket;
}

describe('paper venue market-data WebSocket', () => {
  it('sends gzip frames by default with the BBO pushes of the subscribed sym only', async () => {
    const v = await aPaperVenue();
    opened.venue = v;
    const socket = await subscribed(v);
    v.feed.step(3);
    const push = await socket.waitFor((f) => f?.arg?.channel === 'BBO' && f.data.bid === '98.9');
    expect(push).toMatchObject({ arg: { sym: BTC }, data: { ask: '99.0' } });
    expect(socket.binary.every((b) => b)).toBe(true);
    expect(socket.frames.some((f) => f.includes('US_EQUITY_AAPL'))).toBe(false);
  });

  it('sends plain JSON text with ?binary=false and answers {"ping"} with {"pong"}', async () => {
    const v = await aPaperVenue();
    opened.venue = v;
    const socket = await subscribed(v, '?binary=false');
    socket.send({ ping: 42 });
    expect(await socket.waitFor((f) => f?.pong !== undefined)).toEqual({ pong: 42 });
    v.feed.step(1);
    await socket.waitFor((f) => f?.arg?.channel === 'BBO');
    expect(socket.binary.some((b) => b)).toBe(false);
  });

  it('refuses an unknown sym with 11100 and stops pushing after unsubscribe', async () => {
    const v = await aPaperVenue();
    opened.venue = v;
    const socket = await subscribed(v, '?binary=false');
    socket.send({ event: 'subscribe', arg: [{ channel: 'BBO', sym: 'NOPE' }] });
    expect(await socket.waitFor((f) => f?.event === 'error')).toMatchObject({ code: 11100 });
    socket.send({ event: 'unsubscribe', arg: [{ channel: 'BBO', sym: BTC }] });
    await socket.waitFor((f) => f?.event === 'unsubscribe');
    v.feed.step(4);
    await v.feed.until(4);
    expect(socket.frames.some((f) => f.includes('"data"'))).toBe(false);
  });
});

describe('paper venue lockstep mode (Keel extension)', () => {
  it('releases the next market event only after the client acknowledged the previous one', async () => {
    const v = await aPaperVenue({ pacing: { mode: 'lockstep' } });
    opened.venue = v;
    const socket = await subscribed(v, '?binary=false');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(v.feed.released).toBe(0);
    socket.send({ event: 'lockstep_ack', seq: 0 });
    const first = await socket.waitFor((f) => f?.seq === 1);
    expect(first.data.bid).toBe('100.0');
    // Event 2 is AAPL, which nobody subscribed to: it counts as processed; event 3 waits for our ack.
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(v.feed.released).toBe(1);
    const placed = await signedRest(v, 'POST', '/api/v1/trading/order', {
      sym: BTC,
      side: 'BUY',
      orderType: 'LIMIT',
      orderQty: '1',
      limitPrice: '99.0',
      clientOrderId: 'ls-1',
    });
    expect(placed.body.code).toBe(0);
    await signedRest(v, 'POST', '/api/v1/paper/lockstep/ack', { seq: 1 });
    await socket.waitFor((f) => f?.seq === 3);
    const order = await signedRest(v, 'GET', '/api/v1/trading/order', { clientOrderId: 'ls-1' });
    expect(order.body.data).toMatchObject({ orderState: 'FILLED' });
    expect(v.feed.released).toBe(3);
    const priv = await loggedIn(v.privateWsUrl, v, true);
    opened.sockets.push(priv);
    priv.send({ action: 'lockstep_ack', args: { seq: 3 } });
    await socket.waitFor((f) => f?.seq === 4);
  });

  it('stamps each market frame with how many frames the acknowledging private connection was sent since its login', async () => {
    const v = await aPaperVenue({ pacing: { mode: 'lockstep' } });
    opened.venue = v;
    const socket = await subscribed(v, '?binary=false');
    const priv = await loggedIn(v.privateWsUrl, v);
    opened.sockets.push(priv);
    const sinceLogin = () => priv.frames.length - 1;
    priv.send({ action: 'lockstep_ack', args: { seq: 0 } });
    expect(await socket.waitFor((f) => f?.seq === 1)).toMatchObject({ privateSent: 0 });
    // Rests, then fills on event 3: its order and fill pushes go out before event 3 does.
    const placed = await signedRest(v, 'POST', '/api/v1/trading/order', {
      sym: BTC,
      side: 'BUY',
      orderType: 'LIMIT',
      orderQty: '1',
      limitPrice: '99.0',
      clientOrderId: 'ls-stamp',
    });
    expect(placed.body.code).toBe(0);
    priv.send({ action: 'lockstep_ack', args: { seq: 1 } });
    const third = await socket.waitFor((f) => f?.seq === 3);
    await priv.waitFor((f) => JSON.stringify(f).includes('FILLED'));
    // Nothing more is released until the next ack: what the private socket got is all it was sent.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(third.privateSent).toBeGreaterThan(0);
    expect(third.privateSent).toBe(sinceLogin());
  });
});
