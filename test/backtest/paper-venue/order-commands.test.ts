import { describe, expect, it } from 'vitest';
import {
  aMainAndSubVenue,
  aPaperVenue,
  closedAfterEachTest,
  withFirstQuotes,
} from '../../kit/paper-venue-builders.ts';
import { aaplBuyArgs, loggedIn, signedRest } from '../../kit/paper-venue-client.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const ORDER = '/api/v1/trading/order';

const opened = closedAfterEachTest();

describe('PLACE_ORDER brokerClientId', () => {
  it("books only for the logged-in portfolio's account id and refuses another with 400001", async () => {
    const { venue, sub } = await aMainAndSubVenue({ usdt: 10_000 });
    opened.venue = venue;
    await withFirstQuotes(venue);
    const socket = await loggedIn(venue.privateWsUrl, sub);
    opened.sockets.push(socket);
    socket.send({
      action: 'PLACE_ORDER',
      id: 'other',
      args: aaplBuyArgs({ brokerClientId: 'PAPER-MAIN', qty: 1 }),
    });
    const refused = await socket.waitFor((f) => f?.event === 'PLACE_ORDER_ACK' && f.id === 'other');
    expect(refused).toMatchObject({
      code: 400001,
      message:
        'bad parameters: PLACE_ORDER args.brokerClientId is not the account this login trades for (PAPER-SUB)',
      data: null,
    });
    socket.send({
      action: 'PLACE_ORDER',
      id: 'own',
      args: aaplBuyArgs({ brokerClientId: 'PAPER-SUB', qty: 1 }),
    });
    const booked = await socket.waitFor((f) => f?.event === 'PLACE_ORDER_ACK' && f.id === 'own');
    expect(booked).toMatchObject({ code: 0, data: { orderStatus: 'NEW' } });
  });
});

describe('naming the order a modify acts on', () => {
  it("refuses with 401018 an orderId and a clientOrderId of two orders, or a sym not the order's, changing nothing", async () => {
    opened.venue = await aPaperVenue();
    const venue = await withFirstQuotes(opened.venue);
    const ids: string[] = [];
    for (const clientOrderId of ['rp1', 'rp2']) {
      const body = {
        sym: BTC,
        side: 'BUY',
        orderType: 'LIMIT',
        orderQty: '0.1',
        limitPrice: '99.0',
        clientOrderId,
      };
      const placed = await signedRest(venue, 'POST', ORDER, body);
      ids.push((placed.body.data as { orderId: string }).orderId);
    }
    const crossed = await signedRest(venue, 'PUT', ORDER, {
      orderId: ids[0],
      clientOrderId: 'rp2',
      limitPrice: '98.0',
    });
    expect(crossed.body).toMatchObject({
      code: 401018,
      message: `order not found: no order ${ids[0]} with clientOrderId rp2`,
    });
    const otherSym = await signedRest(venue, 'PUT', ORDER, {
      clientOrderId: 'rp1',
      sym: 'OKX_SPOT_ETH_USDT',
      limitPrice: '98.0',
    });
    expect(otherSym.body).toMatchObject({
      code: 401018,
      message: 'order not found: no order rp1 on OKX_SPOT_ETH_USDT',
    });
    for (const clientOrderId of ['rp1', 'rp2']) {
      const order = await signedRest(venue, 'GET', ORDER, { clientOrderId });
      expect(order.body.data).toMatchObject({ limitPrice: '99' });
    }
  });
});

describe('tp / sl attached to a limit order', () => {
  it.each([
    ['BUY', { tpTriggerPrice: '95' }, 'tpTriggerPrice 95 must be above the limit price 99 of a BUY'],
    ['BUY', { slTriggerPrice: '120' }, 'slTriggerPrice 120 must be below the limit price 99 of a BUY'],
    ['SELL', { tpTriggerPrice: '120' }, 'tpTriggerPrice 120 must be below the limit price 101 of a SELL'],
    ['SELL', { slTriggerPrice: '101' }, 'slTriggerPrice 101 must be above the limit price 101 of a SELL'],
  ])('refuses a %s whose %j triggers on the wrong side with 400001', async (side, leg, words) => {
    opened.venue = await aPaperVenue();
    const venue = await withFirstQuotes(opened.venue);
    const limitPrice = side === 'BUY' ? '99' : '101';
    const body = { sym: BTC, side, orderType: 'LIMIT', orderQty: '0.1', limitPrice, ...leg };
    const refused = await signedRest(venue, 'POST', ORDER, body);
    expect(refused.body).toMatchObject({
      code: 400001,
      message: expect.stringMatching(new RegExp(`^bad parameters: .*${words}$`)),
    });
    const right =
      side === 'BUY'
        ? { tpTriggerPrice: '120', slTriggerPrice: '90' }
        : { tpTriggerPrice: '90', slTriggerPrice: '120' };
    expect((await signedRest(venue, 'POST', ORDER, { ...body, ...right })).body.code).toBe(0);
  });
});
