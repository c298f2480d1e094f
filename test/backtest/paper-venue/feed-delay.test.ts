import { afterEach, describe, expect, it, vi } from 'vitest';
import { listFeed, type PaperVenue } from '../../../backtest/paper-venue/index.ts';
import { aPaperVenue, T0 } from '../../kit/paper-venue-builders.ts';
import { bboPush, signedRest } from '../../kit/paper-venue-client.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';

/** A SELL print the venue stamped `ts` and the recording received at `recvTs`. */
function sellPrint(price: string, ts: number, recvTs: number) {
  return {
    recvTs,
    msg: {
      arg: { channel: 'TRADE', sym: BTC },
      data: { tradeId: `t${ts}`, price, qty: '5', side: 'SELL', ts },
    },
  };
}

/** A BBO the venue stamped `ts` and the recording received at `recvTs`. */
function delayedBbo(bid: string, ask: string, ts: number, recvTs: number) {
  return { ...bboPush(BTC, bid, ask, ts), recvTs };
}

/**
 * 100.0 / 100.1 at T0; then a print at 99.0 the venue made at T0+100 but the recording received
 * at T0+300; then the same print made and received at T0+400.
 */
const PRINTS = [
  bboPush(BTC, '100.0', '100.1', T0),
  sellPrint('99.0', T0 + 100, T0 + 300),
  sellPrint('99.0', T0 + 400, T0 + 400),
];

/** 100.0 / 100.1 at T0; then an ask of 99.0 the venue quoted at T0+100, received at T0+300. */
const QUOTES = [bboPush(BTC, '100.0', '100.1', T0), delayedBbo('98.9', '99.0', T0 + 100, T0 + 300)];

let venues: PaperVenue[] = [];

afterEach(async () => {
  for (const v of venues.splice(0)) await v.close();
  venues = [];
});

async function step(venue: PaperVenue): Promise<void> {
  const target = venue.feed.released + 1;
  venue.feed.step(1);
  await venue.feed.until(target);
}

describe('paper venue: a recording feed delay', () => {
  /** A bid at 99.5 sent at T0, which reaches the matching engine at T0+200, then one feed step. */
  async function bidThenStep(feed: typeof PRINTS): Promise<PaperVenue> {
    const venue = await aPaperVenue({
      feed: listFeed(feed),
      latency: { orderEntry: { fixedMs: 200, jitterMs: 0 }, marketData: { fixedMs: 0, jitterMs: 0 } },
    });
    venues.push(venue);
    await step(venue);
    const placing = signedRest(venue, 'POST', '/api/v1/trading/order', {
      sym: BTC,
      side: 'BUY',
      orderType: 'LIMIT',
      orderQty: '1',
      limitPrice: '99.5',
      clientOrderId: 'bid',
    });
    await vi.waitFor(() => expect(venue.inFlight()).toBe(1));
    await step(venue); // received T0+300, made T0+100: before the bid arrived
    expect((await placing).body.code).toBe(0);
    return venue;
  }

  it('does not fill a resting bid with a print the venue made before the bid reached it, as the backtest sim does not', async () => {
    const venue = await bidThenStep(PRINTS);
    const open = await signedRest(venue, 'GET', '/api/v1/trading/order', { clientOrderId: 'bid' });
    expect(open.body.data).toMatchObject({ orderState: 'OPEN', createAt: T0 + 200 });
    await step(venue); // made T0+400, after it
    const filled = await signedRest(venue, 'GET', '/api/v1/trading/order', { clientOrderId: 'bid' });
    expect(filled.body.data).toMatchObject({ orderState: 'FILLED', executedAvgPrice: '99.5' });
  });

  it('fills it with an ask quoted before it arrived, which still stood when it did', async () => {
    const venue = await bidThenStep(QUOTES);
    const filled = await signedRest(venue, 'GET', '/api/v1/trading/order', { clientOrderId: 'bid' });
    expect(filled.body.data).toMatchObject({ orderState: 'FILLED', executedAvgPrice: '99.5' });
  });
});
