import { describe, expect, it } from 'vitest';
import { referenceRandom, seededUuid } from '../../../backtest/paper-venue/generated-reference.ts';
import { seededRandom } from '../../../core/kernel/index.ts';
import { aPaperVenue, closedAfterEachTest, withFirstQuotes } from '../../kit/paper-venue-builders.ts';
import { aaplBuyArgs, loggedIn, signedRest } from '../../kit/paper-venue-client.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const opened = closedAfterEachTest();

/** Places an AAPL buy without `reference` on a fresh venue of the seed; returns its clientOrderId. */
async function generatedReference(seed: number): Promise<unknown> {
  if (opened.venue) await opened.venue.close();
  opened.venue = await withFirstQuotes(await aPaperVenue({ seed }));
  const socket = await loggedIn(opened.venue.privateWsUrl, opened.venue);
  opened.sockets.push(socket);
  socket.send({ action: 'PLACE_ORDER', id: 'p', args: aaplBuyArgs({ extendedTrading: true }) });
  const ack = await socket.waitFor((f) => f?.event === 'PLACE_ORDER_ACK' && f.id === 'p');
  expect(ack).toMatchObject({ code: 0 });
  const orderId = (ack.data as { orderNo: string }).orderNo;
  const order = await signedRest(opened.venue, 'GET', '/api/v1/trading/order', { orderId });
  socket.close();
  return (order.body.data as { clientOrderId: unknown }).clientOrderId;
}

describe('the reference of a PLACE_ORDER sent without one', () => {
  it('is a version 4 UUID drawn from the seeded source, the same on every run', () => {
    const first = seededUuid(seededRandom(7));
    expect(first).toMatch(UUID_V4);
    expect(seededUuid(seededRandom(7))).toBe(first);
    expect(seededUuid(seededRandom(8))).not.toBe(first);
  });

  it('differs between two portfolios of one venue seed', () => {
    const main = seededUuid(referenceRandom(7, 'PAPER-MAIN'));
    expect(seededUuid(referenceRandom(7, 'PAPER-SUB-1'))).not.toBe(main);
  });

  it('is what the venue books as the order’s clientOrderId (spec: "the service generates a UUID"), repeatably per seed', async () => {
    const first = await generatedReference(7);
    expect(first).toMatch(UUID_V4);
    expect(await generatedReference(7)).toBe(first);
  });
});
