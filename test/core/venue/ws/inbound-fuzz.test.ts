import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import {
  classifyPrivateFrame,
  hmacSigner,
  type InboundCounters,
  MarketDataClient,
  PrivateWsClient,
} from '../../../../core/venue/index.ts';
import { fakeTimer } from '../../../kit/venue-fake-timer.ts';
import {
  mutatedFrame,
  VALID_MARKET_FRAMES,
  VALID_PRIVATE_FRAMES,
} from '../../../kit/venue-frame-arbitraries.ts';

const outcomes = (c: InboundCounters) =>
  c.heartbeats + c.replies + c.unmatchedReplies + c.pushes + c.control + c.malformed + c.unexpected;

describe('inbound frame fuzzing (100k frames in all)', () => {
  it('survives 70k arbitrary and mutated private frames, counting every one exactly once (and each bad entry of a delivered batch once more)', () => {
    const client = new PrivateWsClient({
      url: 'ws://127.0.0.1:1/unused',
      signer: hmacSigner('k', 's'),
      timer: fakeTimer(),
      logger: pino({ level: 'silent' }),
    });
    let events = 0;
    client.userEvents.subscribe(() => events++);
    let sent = 0;
    let badEntries = 0;
    fc.assert(
      fc.property(
        fc.array(mutatedFrame(VALID_PRIVATE_FRAMES), { minLength: 100, maxLength: 100 }),
        (frames) => {
          for (const frame of frames) {
            const classified = classifyPrivateFrame(frame, 0);
            if (classified.kind === 'events') badEntries += classified.badEntries.length;
            client.receive(frame);
          }
          sent += frames.length;
          return client.counters.frames === sent && outcomes(client.counters) === sent + badEntries;
        },
      ),
      { numRuns: 700, seed: 5 },
    );
    expect(sent).toBe(70_000);
    expect(client.counters.malformed).toBeGreaterThan(10_000);
    expect(client.counters.pushes).toBeGreaterThan(1_000);
    expect(events).toBeGreaterThan(1_000);
  }, 60_000);

  it('survives 30k more mutated market-data frames (100k in all), gzip and text, counting every one exactly once', () => {
    const client = new MarketDataClient({
      url: 'ws://127.0.0.1:1/unused',
      timer: fakeTimer(),
      logger: pino({ level: 'silent' }),
    });
    let sent = 0;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(mutatedFrame(VALID_MARKET_FRAMES), fc.boolean()), {
          minLength: 100,
          maxLength: 100,
        }),
        (frames) => {
          for (const [text, gzip] of frames) client.receive(gzip ? gzipSync(text) : text, gzip);
          sent += frames.length;
          return client.counters.frames === sent && outcomes(client.counters) === sent;
        },
      ),
      { numRuns: 300, seed: 7 },
    );
    expect(client.counters.malformed).toBeGreaterThan(1_000);
    expect(client.counters.pushes).toBeGreaterThan(100);
  }, 60_000);
});
