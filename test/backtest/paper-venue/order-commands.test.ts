import { describe, expect, it } from 'vitest';
import { aMainAndSubVenue, closedAfterEachTest, withFirstQuotes } from '../../kit/paper-venue-builders.ts';
import { aaplBuyArgs, loggedIn } from '../../kit/paper-venue-client.ts';

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
