import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { PaperVenue } from '../../../backtest/paper-venue/index.ts';
import { sessionSubscriptions } from '../../../config/compose/market-subscriptions.ts';
import { MarketDataClient } from '../../../core/venue/index.ts';
import { anEthSpot, anInstrument } from '../../kit/instrument-builders.ts';
import { aPaperVenue } from '../../kit/paper-venue-builders.ts';
import { waitFor } from '../../kit/venue-wait.ts';

let venue: PaperVenue | undefined;
let client: MarketDataClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
  await venue?.close();
  venue = undefined;
});

describe('the market data a session subscribes to', () => {
  it('takes BBO, trades and 1m bars of every instrument, and the mark price of perpetuals only', () => {
    const subscriptions = sessionSubscriptions([anInstrument('BINANCE_PERP_BTC_USDT'), anEthSpot()]);
    expect(subscriptions.map((s) => `${s.channel}${s.interval ? ` ${s.interval}` : ''} ${s.sym}`)).toEqual([
      'BBO BINANCE_PERP_BTC_USDT',
      'TRADE BINANCE_PERP_BTC_USDT',
      'KLINE 1m BINANCE_PERP_BTC_USDT',
      'MARK_PRICE BINANCE_PERP_BTC_USDT',
      'BBO OKX_SPOT_ETH_USDT',
      'TRADE OKX_SPOT_ETH_USDT',
      'KLINE 1m OKX_SPOT_ETH_USDT',
    ]);
  });

  it('goes in one message, so the venue confirms all of 8 perpetuals with no rate-limit refusal', async () => {
    const coins = ['BTC', 'ETH', 'SOL', 'XRP', 'DOGE', 'ADA', 'DOT', 'LTC'];
    const instruments = coins.map((coin) => anInstrument(`BINANCE_PERP_${coin}_USDT`));
    venue = await aPaperVenue({ instruments });
    const frames: string[] = [];
    client = new MarketDataClient({
      url: venue.marketDataWsUrl,
      binary: false,
      logger: pino({ level: 'silent' }),
      onRaw: (raw) => frames.push(raw.text),
    });
    await client.connect();
    const subscriptions = sessionSubscriptions(instruments);
    client.subscribeAll(subscriptions);
    await waitFor(() => frames.length > 0, 'the confirmation');
    const [confirmation] = frames.map((text) => JSON.parse(text) as { event?: string; arg?: unknown[] });
    expect(confirmation?.event).toBe('subscribe');
    expect(confirmation?.arg).toHaveLength(32);
    expect(subscriptions).toHaveLength(32);
  });
});
