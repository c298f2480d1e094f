import { describe, expect, it } from 'vitest';
import { aPaperVenue, closedAfterEachTest } from '../../kit/paper-venue-builders.ts';
import { openCollecting } from '../../kit/paper-venue-client.ts';

const opened = closedAfterEachTest();

describe('paper venue market-data channels of perpetuals only', () => {
  it.each(['MARK_PRICE', 'INDEX_PRICE', 'OPEN_INTEREST'])(
    'refuses %s of a non-perpetual with 11100 and accepts it for a perpetual',
    async (channel) => {
      opened.venue = await aPaperVenue();
      const socket = await openCollecting(`${opened.venue.marketDataWsUrl}?binary=false`);
      opened.sockets.push(socket);
      socket.send({ event: 'subscribe', arg: [{ channel, sym: 'US_EQUITY_AAPL' }] });
      const refused = await socket.waitFor((f) => f?.event === 'error' || f?.event === 'subscribe');
      expect(refused).toMatchObject({ event: 'error', code: 11100 });
      expect(refused.msg).toContain(`${channel} US_EQUITY_AAPL`);
      const from = socket.frames.length;
      socket.send({ event: 'subscribe', arg: [{ channel, sym: 'BINANCE_PERP_BTC_USDT' }] });
      expect(
        await socket.waitFor((f) => f?.event === 'subscribe' || f?.event === 'error', 3000, from),
      ).toMatchObject({
        event: 'subscribe',
        code: 0,
      });
    },
  );
});
