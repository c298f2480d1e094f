import { describe, expect, it } from 'vitest';
import { aPaperVenue, closedAfterEachTest } from '../../kit/paper-venue-builders.ts';
import { loggedIn, openCollecting } from '../../kit/paper-venue-client.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const opened = closedAfterEachTest();

/** JSON texts that parse but are not the object a request is. */
const NOT_AN_OBJECT = ['null', '7', '"text"', 'true', '[]', '[null]'];

describe('paper venue: a JSON frame that is not an object', () => {
  it('gets a 400001 error reply on the private socket, which keeps serving', async () => {
    opened.venue = await aPaperVenue();
    const socket = await loggedIn(opened.venue.privateWsUrl, opened.venue);
    opened.sockets.push(socket);
    for (const text of NOT_AN_OBJECT) {
      const from = socket.frames.length;
      socket.send(text);
      expect(await socket.waitFor((f) => f?.event === 'error', 3000, from)).toMatchObject({
        id: null,
        code: 400001,
        data: null,
      });
    }
    socket.send({ action: 'lockstep_ack', args: null });
    socket.send('ping');
    expect(await socket.waitFor((f) => f === 'pong')).toBe('pong');
    socket.send({ action: 'cancel_orders', id: 'c1', args: { sym: BTC } });
    expect(await socket.waitFor((f) => f?.id === 'c1')).toMatchObject({ event: 'cancel_orders', code: 0 });
  });

  it('gets a 400001 error reply on the market-data socket, which keeps serving', async () => {
    opened.venue = await aPaperVenue();
    const socket = await openCollecting(`${opened.venue.marketDataWsUrl}?binary=false`);
    opened.sockets.push(socket);
    for (const text of NOT_AN_OBJECT) {
      const from = socket.frames.length;
      socket.send(text);
      expect(await socket.waitFor((f) => f?.event === 'error', 3000, from)).toMatchObject({ code: 400001 });
    }
    socket.send({ ping: 1 });
    expect(await socket.waitFor((f) => f?.pong !== undefined)).toEqual({ pong: 1 });
  });

  it('refuses a subscribe whose arg list holds a value that is not an object with 11100, subscribing nothing', async () => {
    const v = await aPaperVenue();
    opened.venue = v;
    const socket = await openCollecting(`${v.marketDataWsUrl}?binary=false`);
    opened.sockets.push(socket);
    for (const entry of [null, 3, 'BBO', [BTC]]) {
      const from = socket.frames.length;
      socket.send({ event: 'subscribe', arg: [{ channel: 'BBO', sym: BTC }, entry] });
      expect(await socket.waitFor((f) => f?.event === 'error', 3000, from)).toMatchObject({
        code: 11100,
        msg: `invalid symbol or channel: ${JSON.stringify(entry)}`,
      });
    }
    v.feed.step(1);
    await v.feed.until(1);
    expect(socket.frames.some((f) => f.includes('"data"'))).toBe(false);
    socket.send({ event: 'subscribe', arg: [{ channel: 'BBO', sym: BTC }] });
    expect(await socket.waitFor((f) => f?.event === 'subscribe')).toMatchObject({ code: 0 });
  });
});
