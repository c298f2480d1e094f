import { describe, expect, it } from 'vitest';
import { listFeed, type PaperVenue } from '../../../backtest/paper-venue/index.ts';
import { decodeMarketMessage } from '../../../core/venue/index.ts';
import { aPaperVenue, closedAfterEachTest, T0 } from '../../kit/paper-venue-builders.ts';
import { bboPush, type CollectingSocket, openCollecting, signedRest } from '../../kit/paper-venue-client.ts';

const BTC = 'BINANCE_PERP_BTC_USDT';
const AAPL = 'US_EQUITY_AAPL';
const opened = closedAfterEachTest();

const trade = (sym: string, id: string, price: string, qty: string, ts: number) => ({
  recvTs: ts,
  msg: { arg: { channel: 'TRADE', sym }, data: { tradeId: id, price, qty, side: 'BUY', ts } },
});
const mark = (markPrice: string, indexPrice: string, ts: number) => ({
  recvTs: ts,
  msg: { arg: { channel: 'MARK_PRICE', sym: BTC }, data: { markPrice, indexPrice, ts } },
});

/** BTC quotes, two trades, a mark price, a trade after the (10 s) window, and an AAPL trade. */
const PUSHES = [
  bboPush(BTC, '100.0', '100.1', T0),
  trade(BTC, 't1', '100.1', '0.5', T0 + 1000),
  trade(BTC, 't2', '99.9', '0.25', T0 + 2000),
  mark('100.02', '100.01', T0 + 3000),
  trade(BTC, 't3', '100.5', '1', T0 + 20_000),
  trade(AAPL, 'a1', '190.01', '3', T0 + 20_001),
];

async function started(): Promise<PaperVenue> {
  opened.venue = await aPaperVenue({ feed: listFeed(PUSHES), tickerWindowMs: 10_000 });
  return opened.venue;
}

async function subscribedTo(
  v: PaperVenue,
  query: string,
  args: { channel: string; sym: string }[],
): Promise<CollectingSocket> {
  const socket = await openCollecting(`${v.marketDataWsUrl}${query}`);
  opened.sockets.push(socket);
  socket.send({ event: 'subscribe', arg: args });
  expect(await socket.waitFor((f) => f?.event === 'subscribe')).toMatchObject({ code: 0 });
  return socket;
}

// biome-ignore lint/suspicious/noExplicitAny: frames are arbitrary JSON the tests inspect field by field
const pushesOf = (socket: CollectingSocket, channel: string): any[] =>
  socket.frames.map((f) => JSON.parse(f)).filter((f) => f?.arg?.channel === channel);

describe('paper venue derived market data (TICKER, INDEX_PRICE, OPEN_INTEREST; Keel’s choice)', () => {
  it('pushes a TICKER on each trade of a subscribed sym, as plain JSON with ?binary=false, over a rolling window', async () => {
    const v = await started();
    const socket = await subscribedTo(v, '?binary=false', [{ channel: 'TICKER', sym: BTC }]);
    v.feed.step(PUSHES.length);
    await v.feed.until(PUSHES.length);
    await socket.waitFor((f) => f?.data?.last === '100.5');
    expect(pushesOf(socket, 'TICKER').map((f) => f.data)).toEqual([
      {
        last: '100.1',
        bid: '100',
        ask: '100.1',
        high24h: '100.1',
        low24h: '100.1',
        volume24h: '0.5',
        ts: T0 + 1000,
      },
      {
        last: '99.9',
        bid: '100',
        ask: '100.1',
        high24h: '100.1',
        low24h: '99.9',
        volume24h: '0.75',
        ts: T0 + 2000,
      },
      // 18 s later: the two earlier trades left the 10 s window.
      {
        last: '100.5',
        bid: '100',
        ask: '100.1',
        high24h: '100.5',
        low24h: '100.5',
        volume24h: '1',
        ts: T0 + 20_000,
      },
    ]);
    expect(pushesOf(socket, 'TICKER').every((f) => f.arg.sym === BTC)).toBe(true);
    expect(socket.binary.some((b) => b)).toBe(false);
    // Keel's own decoder reads what the venue wrote.
    expect(decodeMarketMessage(pushesOf(socket, 'TICKER')[1], 7)).toEqual({
      kind: 'ticker',
      sym: BTC,
      ts: T0 + 2000,
      recvTs: 7,
      last: 99.9,
      bid: 100,
      ask: 100.1,
      high24h: 100.1,
      low24h: 99.9,
      volume24h: 0.75,
    });
  });

  it('pushes INDEX_PRICE and OPEN_INTEREST of a perpetual as gzip frames: the mid until mark prices come, then the mark feed’s index', async () => {
    const v = await started();
    const socket = await subscribedTo(v, '', [
      { channel: 'INDEX_PRICE', sym: BTC },
      { channel: 'OPEN_INTEREST', sym: BTC },
    ]);
    v.feed.step(1);
    await v.feed.until(1);
    const buy = { sym: BTC, side: 'BUY', orderType: 'MARKET', orderQty: '2', clientOrderId: 'oi-1' };
    expect((await signedRest(v, 'POST', '/api/v1/trading/order', buy)).body.code).toBe(0);
    v.feed.step(PUSHES.length - 1);
    await v.feed.until(PUSHES.length);
    await socket.waitFor((f) => f?.arg?.channel === 'OPEN_INTEREST' && f.data.ts === T0 + 3000);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(pushesOf(socket, 'INDEX_PRICE').map((f) => [f.arg.sym, f.data])).toEqual([
      // Trades before any mark price: the quote mid (100.0 + 100.1) / 2.
      [BTC, { indexPrice: '100.05', ts: T0 + 1000 }],
      [BTC, { indexPrice: '100.05', ts: T0 + 2000 }],
      // Then the mark feed's index price, and trades no longer push it.
      [BTC, { indexPrice: '100.01', ts: T0 + 3000 }],
    ]);
    // The paper venue's one open position: 2 BTC bought at market.
    expect(pushesOf(socket, 'OPEN_INTEREST').map((f) => f.data)).toEqual([
      { openInterest: '2', ts: T0 + 1000 },
      { openInterest: '2', ts: T0 + 2000 },
      { openInterest: '2', ts: T0 + 3000 },
    ]);
    expect(socket.binary.every((b) => b)).toBe(true);
  });

  it('counts every portfolio’s position in OPEN_INTEREST, long or short, and zero when flat', async () => {
    const v = await started();
    const socket = await subscribedTo(v, '?binary=false', [{ channel: 'OPEN_INTEREST', sym: BTC }]);
    v.feed.step(1);
    await v.feed.until(1);
    const sell = { sym: BTC, side: 'SELL', orderType: 'MARKET', orderQty: '1.5', clientOrderId: 'oi-s' };
    expect((await signedRest(v, 'POST', '/api/v1/trading/order', sell)).body.code).toBe(0);
    v.feed.step(1);
    await socket.waitFor((f) => f?.data?.ts === T0 + 1000);
    const close = { sym: BTC, side: 'BUY', orderType: 'MARKET', orderQty: '1.5', clientOrderId: 'oi-b' };
    expect((await signedRest(v, 'POST', '/api/v1/trading/order', close)).body.code).toBe(0);
    v.feed.step(1);
    await socket.waitFor((f) => f?.data?.ts === T0 + 2000);
    expect(pushesOf(socket, 'OPEN_INTEREST').map((f) => f.data.openInterest)).toEqual(['1.5', '0']);
  });

  it('forwards a channel the feed carries itself instead of deriving it', async () => {
    const fed = {
      recvTs: T0 + 500,
      msg: {
        arg: { channel: 'TICKER', sym: BTC },
        data: { last: '1', high24h: '2', low24h: '0.5', volume24h: '9', ts: T0 + 500 },
      },
    };
    const v = await aPaperVenue({
      feed: listFeed([PUSHES[0], fed, PUSHES[1]].filter((p) => p !== undefined)),
    });
    opened.venue = v;
    const socket = await subscribedTo(v, '?binary=false', [{ channel: 'TICKER', sym: BTC }]);
    v.feed.step(3);
    await v.feed.until(3);
    await socket.waitFor((f) => f?.data?.last === '1');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(pushesOf(socket, 'TICKER').map((f) => f.data.last)).toEqual(['1']);
  });

  it('in lockstep mode gives a derived push the seq of its event and waits for its acknowledgement', async () => {
    const v = await aPaperVenue({ feed: listFeed(PUSHES), pacing: { mode: 'lockstep' } });
    opened.venue = v;
    const socket = await subscribedTo(v, '?binary=false', [{ channel: 'TICKER', sym: BTC }]);
    socket.send({ event: 'lockstep_ack', seq: 0 });
    // Event 1 (BBO) has no subscriber and counts as processed; event 2's trade gives a TICKER.
    const first = await socket.waitFor((f) => f?.arg?.channel === 'TICKER');
    expect([first.seq, first.data.last]).toEqual([2, '100.1']);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(v.feed.released).toBe(2);
    socket.send({ event: 'lockstep_ack', seq: 2 });
    const second = await socket.waitFor((f) => f?.arg?.channel === 'TICKER' && f.seq === 3);
    expect(second.data.last).toBe('99.9');
  });
});
