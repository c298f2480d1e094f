import { describe, expect, it } from 'vitest';
import { listFeed } from '../../../backtest/paper-venue/index.ts';
import { aMainAndSubVenue, closedAfterEachTest, T0 } from '../../kit/paper-venue-builders.ts';
import { bboPush, loggedIn, signedRest } from '../../kit/paper-venue-client.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const opened = closedAfterEachTest();

describe('paper venue liquidation channels', () => {
  it('pushes LiquidationEvent and LiquidationPosition to the liquidated sub-portfolio and LiquidationPositionByUser to the main connection', async () => {
    const {
      venue: v,
      main,
      sub,
    } = await aMainAndSubVenue(
      { usdt: 1_000 },
      {
        feed: listFeed([
          bboPush(BTC, '100.0', '100.1', T0, '100'),
          bboPush(BTC, '80.0', '80.1', T0 + 1000, '100'),
        ]),
      },
    );
    opened.venue = v;
    v.feed.step(1);
    await v.feed.until(1);
    const mainSocket = await loggedIn(v.privateWsUrl, main);
    const subSocket = await loggedIn(v.privateWsUrl, sub);
    opened.sockets.push(mainSocket, subSocket);
    const buy = await signedRest(sub, 'POST', '/api/v1/trading/order', {
      sym: BTC,
      side: 'BUY',
      orderType: 'MARKET',
      orderQty: '90',
    });
    expect(buy.body.code).toBe(0);
    v.feed.step(1);
    const node = await subSocket.waitFor((f) => f?.channel === 'LiquidationEvent');
    await subSocket.waitFor((f) => f?.channel === 'LiquidationPosition');
    const byUser = await mainSocket.waitFor((f) => f?.channel === 'LiquidationPositionByUser');
    expect(byUser.data[0]).toMatchObject({ portfolioId: 'PAPER-SUB', sym: BTC });
    const id = node.data[0].liquidationEventId as string;
    const detail = await signedRest(sub, 'GET', '/api/v1/trading/liquidationEvent', {
      liquidationEventId: id,
    });
    expect(detail.body.data).toMatchObject({ liquidationEventId: id });
  });
});
