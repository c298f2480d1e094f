import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { MarketDataClient } from '../../../../core/venue/index.ts';
import { fakeTimer } from '../../../kit/venue-fake-timer.ts';

describe('the malformed-frame log keys a problem by its kind, not by the bad value it names', () => {
  it('logs a BBO price sent as a JSON number once however its value changes, and a new problem (TRADE) as it comes', async () => {
    const records: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) records.push(JSON.parse(line));
        done();
      },
    });
    const timer = fakeTimer();
    const client = new MarketDataClient({
      url: 'ws://127.0.0.1:1/unused',
      timer,
      logger: pino({ level: 'info' }, sink),
    });
    // One problem (bid as a JSON number, not a decimal string) on 100 frames, 10 a second.
    for (let i = 0; i < 100; i++) {
      client.receive(
        JSON.stringify({
          arg: { channel: 'BBO', sym: 'BINANCE_PERP_BTC_USDT' },
          data: { bid: 100 + i / 10, bidqty: '1', ask: '200', askqty: '1', ts: 1_700_000_000_000 + i },
        }),
        false,
      );
      await timer.advance(100);
    }
    const bboLines = records.filter((r) => String(r.problem ?? '').startsWith('BBO')).length;
    // A new kind of problem: TRADE frames whose price is not a decimal.
    client.receive(
      JSON.stringify({
        arg: { channel: 'TRADE', sym: 'BINANCE_PERP_BTC_USDT' },
        data: { tradeId: 't1', price: 'n/a', qty: '1', side: 'BUY', ts: 1_700_000_010_000 },
      }),
      false,
    );
    await client.close(0);
    // The one BBO problem should be one line, not 64+.
    expect(bboLines).toBe(1);
    // The TRADE problem should be logged as it came.
    expect(records.some((r) => String(r.problem ?? '').startsWith('TRADE'))).toBe(true);
  });
});
