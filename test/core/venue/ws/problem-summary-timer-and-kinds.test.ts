import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import {
  hmacSigner,
  MarketDataClient,
  PROBLEM_SUMMARY_INTERVAL_MS,
  PrivateWsClient,
} from '../../../../core/venue/index.ts';
import { fakeTimer } from '../../../kit/venue-fake-timer.ts';
import { WIRE_EXECUTION, WIRE_ORDER } from '../../../kit/venue-wire-samples.ts';

/** A pino logger writing parsed records to an array. */
function recordingLogger() {
  const records: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) records.push(JSON.parse(line));
      done();
    },
  });
  return { records, logger: pino({ level: 'info' }, sink) };
}

/** A private client fed frames by the test (never connected), on a fake timer. */
function privateClient() {
  const { records, logger } = recordingLogger();
  const timer = fakeTimer();
  const client = new PrivateWsClient({
    url: 'ws://127.0.0.1:1/unused',
    signer: hmacSigner('k', 's'),
    timer,
    logger,
  });
  return { client, timer, records };
}

describe('summary of repeated inbound problems', () => {
  it('is written a minute after a burst of malformed market frames, not only at the next bad frame or the close', async () => {
    const { records, logger } = recordingLogger();
    const timer = fakeTimer();
    const client = new MarketDataClient({ url: 'ws://127.0.0.1:1/unused', timer, logger });
    // A burst: 500 malformed BBOs in 50 s, then the venue is fine again.
    for (let i = 0; i < 500; i++) {
      client.receive(
        JSON.stringify({
          arg: { channel: 'BBO', sym: 'BINANCE_PERP_BTC_USDT' },
          data: { bid: 'n/a', bidqty: '1', ask: '100', askqty: '1', ts: 1_700_000_000_000 + i },
        }),
        false,
      );
      await timer.advance(100);
    }
    expect(client.counters.malformed).toBe(500);
    await timer.advance(PROBLEM_SUMMARY_INTERVAL_MS);
    expect(records.map((r) => r.repeats)).toEqual([undefined, expect.objectContaining({})]);
    expect(Object.values(records[1]?.repeats as Record<string, number>)).toEqual([499]);
    await client.close(0);
    expect(records, 'nothing left to summarize at the close').toHaveLength(2);
  });

  it('is written within a minute of a second dropped fill a day after the first', async () => {
    const { client, timer, records } = privateClient();
    const badFill = JSON.stringify({ channel: 'Trades', data: [{ ...WIRE_EXECUTION, price: 'n/a' }] });
    client.receive(badFill);
    expect(records).toHaveLength(1);
    await timer.advance(24 * 3_600_000);
    client.receive(badFill);
    await timer.advance(PROBLEM_SUMMARY_INTERVAL_MS);
    expect(records, 'the second dropped fill has a line within the minute').toHaveLength(2);
    expect(records[0]?.problem).toMatch(/Trades channel data\[0\]: price/);
    expect(Object.values(records[1]?.repeats as Record<string, number>)).toEqual([1]);
    await client.close(0);
    expect(timer.pending(), 'no summary timer left after the close').toBe(0);
  });

  it('names a new kind of problem even after one bad batch of 100 entries', async () => {
    const { client, timer, records } = privateClient();
    // A venue change breaks the fee of 100 entries of an Orders batch: the paths differ by index.
    const bad = Array.from({ length: 100 }, (_, i) => ({ ...WIRE_ORDER, orderId: `o-${i}`, fee: 12 }));
    client.receive(JSON.stringify({ channel: 'Orders', data: [WIRE_ORDER, ...bad] }));
    expect(client.counters.malformed).toBe(100);
    expect(records, 'one line for the batch, its repeats waiting for the summary').toHaveLength(1);
    await timer.advance(3_600_000);
    // Later, a different field of a fill breaks: a fill is dropped.
    client.receive(JSON.stringify({ channel: 'Trades', data: [{ ...WIRE_EXECUTION, price: 'n/a' }] }));
    await client.close(0);
    expect(JSON.stringify(records), "the dropped fill's problem is named").toMatch(
      /Trades channel data\[0\][^"]*price/,
    );
  });
});
