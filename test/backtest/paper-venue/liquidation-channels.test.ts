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

  it('delivers each liquidation order once per channel: LiquidationPosition to the sub, LiquidationPositionByUser to the main only', async () => {
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
    const buy = { sym: BTC, side: 'BUY', orderType: 'MARKET', orderQty: '90' };
    expect((await signedRest(sub, 'POST', '/api/v1/trading/order', buy)).body.code).toBe(0);
    v.feed.step(1);
    await subSocket.waitFor((f) => f?.channel === 'LiquidationEvent' && f.data[0].nodeType === 'FINISHED');
    // A marker after the liquidation: every push before it on the main connection has arrived.
    const marker = {
      sym: BTC,
      side: 'BUY',
      orderType: 'LIMIT',
      orderQty: '1',
      limitPrice: '50.0',
      clientOrderId: 'marker',
    };
    expect((await signedRest(main, 'POST', '/api/v1/trading/order', marker)).body.code).toBe(0);
    await mainSocket.waitFor((f) => f?.channel === 'Orders' && f.data[0].clientOrderId === 'marker');
    const liquidationFrames = (socket: typeof mainSocket) =>
      socket.frames
        .map((text) => JSON.parse(text))
        .filter((f) => String(f?.channel).startsWith('LiquidationPosition'))
        .map((f) => `${f.channel} ${f.data[0].portfolioId} ${f.data[0].orderId}`);
    const subLines = liquidationFrames(subSocket);
    expect(subLines).toHaveLength(1);
    expect(subLines[0]).toMatch(/^LiquidationPosition PAPER-SUB \S+$/);
    expect(liquidationFrames(mainSocket)).toEqual([
      subLines[0]?.replace('LiquidationPosition', 'LiquidationPositionByUser'),
    ]);
  });
});
