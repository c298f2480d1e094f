import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { MarketDataClient, PROBLEM_SUMMARY_INTERVAL_MS } from '../../../../core/venue/index.ts';
import { fakeTimer } from '../../../kit/venue-fake-timer.ts';

describe('log volume of a venue that sends one bad field on every BBO', () => {
  it('does not write one warn line per malformed frame (a day at 10 frames/s would be 864 000 lines)', async () => {
    const records: Record<string, unknown>[] = [];
    let bytes = 0;
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) records.push(JSON.parse(line));
        bytes += chunk.length;
        done();
      },
    });
    const timer = fakeTimer();
    const client = new MarketDataClient({
      url: 'ws://127.0.0.1:1/unused',
      timer,
      logger: pino({ level: 'info' }, sink),
    });
    const frames = 10_000;
    for (let i = 0; i < frames; i++) {
      // A BBO whose bid became a number-less string (e.g. a venue change): malformed each time.
      const text = JSON.stringify({
        arg: { channel: 'BBO', sym: 'BINANCE_PERP_BTC_USDT' },
        data: { bid: 'n/a', bidqty: '1', ask: '100', askqty: '1', ts: 1_700_000_000_000 + i },
      });
      client.receive(text, false);
      // 10 frames a second, on the client's clock.
      await timer.advance(100);
    }
    expect(client.counters.malformed).toBe(frames);
    console.log(`${records.length} log lines, ${bytes} bytes for ${frames} malformed frames`);
    expect(records.length).toBeLessThan(1_000);
    // The first frame's problem is logged as it came, then one summary a minute counts the repeats.
    expect(records[0]?.problem).toEqual(expect.any(String));
    const summaries = records.slice(1);
    const minutes = Math.floor((frames * 100) / PROBLEM_SUMMARY_INTERVAL_MS);
    expect(summaries.length).toBe(minutes);
    await client.close(0);
    const counted = records
      .slice(1)
      .flatMap((r) => Object.values(r.repeats as Record<string, number>))
      .reduce((a, b) => a + b, 0);
    expect(counted).toBe(frames - 1);
  });
});
