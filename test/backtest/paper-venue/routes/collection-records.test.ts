import { describe, expect, it } from 'vitest';
import { listFeed } from '../../../../backtest/paper-venue/index.ts';
import { SYNTHETIC_AAPL } from '../../../../backtest/synthetic/index.ts';
import { D } from '../../../../core/model/index.ts';
import { anInstrument } from '../../../kit/instrument-builders.ts';
import {
  aMainAndSubVenue,
  closedAfterEachTest,
  T0,
  withFirstQuotes,
} from '../../../kit/paper-venue-builders.ts';
import { bboPush, loggedIn, signedRest } from '../../../kit/paper-venue-client.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const opened = closedAfterEachTest();

describe('paper venue collection records (the sub-portfolio markup part of each fill fee)', () => {
  it('collects the markup on the notional the fee was charged on, contract size included', async () => {
    const { venue, main, sub } = await aMainAndSubVenue(
      { usdt: 10_000, feeMarkup: D('0.0001') }, // 1 bps sub-portfolio markup
      { instruments: [anInstrument(BTC, { minNotional: D('0'), contractSize: D('0.01') }), SYNTHETIC_AAPL] },
    );
    opened.venue = venue;
    await withFirstQuotes(venue);
    const order = { sym: BTC, side: 'BUY', orderType: 'MARKET', orderQty: '2', clientOrderId: 'c1' };
    expect((await signedRest(sub, 'POST', '/api/v1/trading/order', order)).body.code).toBe(0);
    const fills = (await signedRest(sub, 'GET', '/api/v1/trading/executions', { sym: BTC })).body.data as {
      fee: string;
    }[];
    // notional 2 contracts x 0.01 x 100.1 = 2.002; fee = 2.002 x (5 bps taker + 1 bps markup)
    expect(fills.map((f) => f.fee)).toEqual(['0.0012012']);
    const records = await signedRest(main, 'GET', '/api/v1/broker/collectionRecord', {
      subPortfolioId: 'PAPER-SUB',
    });
    // the markup part of that fee: 2.002 x 1 bps
    expect((records.body.data as { list: { fee: string }[] }).list.map((r) => r.fee)).toEqual(['0.0002002']);
  });

  it('lists no markup for a liquidation fill, which paid the liquidation fee instead', async () => {
    const { venue, main, sub } = await aMainAndSubVenue(
      { usdt: 1_000, feeMarkup: D('0.0001') },
      {
        feed: listFeed([
          bboPush(BTC, '100.0', '100.1', T0, '100'),
          bboPush(BTC, '80.0', '80.1', T0 + 1000, '100'),
        ]),
      },
    );
    opened.venue = venue;
    venue.feed.step(1);
    await venue.feed.until(1);
    const subSocket = await loggedIn(venue.privateWsUrl, sub);
    opened.sockets.push(subSocket);
    const buy = { sym: BTC, side: 'BUY', orderType: 'MARKET', orderQty: '90', clientOrderId: 'open' };
    expect((await signedRest(sub, 'POST', '/api/v1/trading/order', buy)).body.code).toBe(0);
    venue.feed.step(1);
    await subSocket.waitFor((f) => f?.channel === 'LiquidationEvent' && f.data[0].nodeType === 'FINISHED');
    const fills = (await signedRest(sub, 'GET', '/api/v1/trading/executions', { sym: BTC })).body.data as {
      clientOrderId: string;
    }[];
    expect(fills).toHaveLength(2);
    const records = await signedRest(main, 'GET', '/api/v1/broker/collectionRecord', {
      subPortfolioId: 'PAPER-SUB',
    });
    // only the opening fill paid the 1 bps markup: 90 x 100.1 x 0.0001
    expect((records.body.data as { list: { fee: string }[] }).list.map((r) => r.fee)).toEqual(['0.9009']);
  });
});
