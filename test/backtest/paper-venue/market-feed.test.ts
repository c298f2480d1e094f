import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type FeedSettleRounds,
  LOCKSTEP_SETTLE_ROUNDS,
  listFeed,
  MarketFeed,
  recordingFeed,
  SNAPSHOT_FILE,
  syntheticFeed,
} from '../../../backtest/paper-venue/index.ts';
import { EXAMPLE_SESSION_FILE, SYNTHETIC_MARKETS } from '../../../backtest/synthetic/index.ts';
import { realTimer } from '../../../core/venue/index.ts';
import { aPaperVenue, SCRIPTED_PUSHES, T0 } from '../../kit/paper-venue-builders.ts';
import { bboPush, signedRest } from '../../kit/paper-venue-client.ts';
import { fakeTimer } from '../../kit/venue-fake-timer.ts';

describe('paper venue market feed', () => {
  it('paces releases by the events’ receive times on the wall clock, scaled by speed', async () => {
    const timer = fakeTimer();
    const released: number[] = [];
    const pushes = [0, 1000, 3000].map((dt) => bboPush('BINANCE_PERP_BTC_USDT', '1.0', '1.1', T0 + dt));
    const feed = new MarketFeed(listFeed(pushes), { mode: 'realtime', speed: 2 }, timer, (item) =>
      released.push(item.event.recvTs - T0),
    );
    feed.start();
    await timer.advance(0);
    expect(released).toEqual([0]);
    await timer.advance(499);
    expect(released).toEqual([0]);
    await timer.advance(1);
    expect(released).toEqual([0, 1000]);
    await timer.advance(999);
    expect(released).toEqual([0, 1000]);
    await timer.advance(1);
    expect(released).toEqual([0, 1000, 3000]);
    await feed.stop();
  });

  it('closes at once even while pacing waits out a long gap between events', async () => {
    const pushes = [0, 3_600_000].map((dt) => bboPush('BINANCE_PERP_BTC_USDT', '1.0', '1.1', T0 + dt));
    const timer = fakeTimer();
    const feed = new MarketFeed(listFeed(pushes), { mode: 'realtime' }, timer, () => undefined);
    feed.start();
    await feed.until(1);
    await feed.stop();
    expect(feed.released).toBe(1);
    expect(timer.pending()).toBe(0);
  });

  it('releases everything as fast as possible in asap mode and reports the end', async () => {
    const feed = new MarketFeed(listFeed(SCRIPTED_PUSHES), { mode: 'asap' }, realTimer(), () => undefined);
    feed.start();
    await feed.until(100);
    expect(feed.released).toBe(4);
    expect(feed.ended).toBe(true);
    await feed.stop();
  });

  it('reports a source that fails (a missing recording) instead of crashing', async () => {
    const feed = new MarketFeed(
      recordingFeed('/nonexistent/session.jsonl'),
      { mode: 'asap' },
      realTimer(),
      () => undefined,
    );
    feed.start();
    await feed.until(1);
    expect(feed.ended).toBe(true);
    expect(feed.failure?.message).toMatch(/ENOENT|nonexistent/);
  });

  it('replays a recorded session through the venue decoders', async () => {
    const path = join(import.meta.dirname, '../../../backtest/sessions', EXAMPLE_SESSION_FILE);
    const source = recordingFeed(path)();
    const first = await source.next();
    expect(first.done).toBe(false);
    expect(first.value?.event.sym).toMatch(/_/);
    await source.return?.();
  });

  it('generates the same SYNTHETIC events for the same seed', async () => {
    const take = async () => {
      const source = syntheticFeed({
        seed: 3,
        startTime: T0,
        durationMs: 5_000,
        markets: [SYNTHETIC_MARKETS[0]!],
      })();
      const out: string[] = [];
      for (let next = await source.next(); !next.done; next = await source.next())
        out.push(JSON.stringify(next.value.wire));
      return out;
    };
    const [a, b] = [await take(), await take()];
    expect(a.length).toBeGreaterThan(10);
    expect(a).toEqual(b);
  });
});

describe('paper venue snapshot writes', () => {
  it('writes the snapshot only after the debounce on the injected clock', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'paper-venue-'));
    const timer = fakeTimer(Date.now());
    const venue = await aPaperVenue({ dataDir, timer, persistDebounceMs: 1000 });
    try {
      const placed = await signedRest(
        venue,
        'POST',
        '/api/v1/trading/order',
        { sym: 'BINANCE_PERP_BTC_USDT', side: 'BUY', orderType: 'MARKET', orderQty: '1' },
        { nonceSeconds: Math.floor(timer.now() / 1000) },
      );
      expect(placed.body.code).not.toBe(7000);
      const file = join(dataDir, SNAPSHOT_FILE);
      expect(existsSync(file)).toBe(false);
      await timer.advance(999);
      expect(existsSync(file)).toBe(false);
      await timer.advance(1);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ version: 2, journalLength: 1 });
    } finally {
      await venue.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('paper venue market feed in lockstep, with a client holding commands', () => {
  it('releases the next event on the plain ack that came while it read that event ahead after a held ack', async () => {
    // A held ack makes the feed read the next event ahead (for its time); a source that is slow to
    // give it (a recording's end of file, under load) let the client's plain ack arrive meanwhile:
    // its wake-up was lost, and the feed then waited for another ack that never came.
    const pushes = [0, 1000].map((dt) => bboPush('BINANCE_PERP_BTC_USDT', '1.0', '1.1', T0 + dt));
    let gate: (() => void) | undefined;
    const source = () => {
      const items = listFeed(pushes)();
      let reads = 0;
      return {
        next: async () => {
          if (++reads === 2) await new Promise<void>((open) => (gate = open));
          return items.next();
        },
      };
    };
    const feed = new MarketFeed(
      source,
      { mode: 'lockstep' },
      fakeTimer(),
      () => undefined,
      () => undefined,
      undefined,
      () => 'none',
    );
    const turns = () => new Promise<void>((done) => setImmediate(done));
    feed.start();
    feed.ack(0);
    await feed.until(1);
    feed.ack(1, { held: true });
    await turns();
    expect(gate).toBeDefined();
    feed.ack(1);
    gate?.();
    for (let i = 0; i < 5; i++) await turns();
    expect(feed.released).toBe(2);
    await feed.stop();
  });
});

describe('paper venue market feed in lockstep, with a client that takes settle rounds', () => {
  const pushes = [0, 1000].map((dt) => bboPush('BINANCE_PERP_BTC_USDT', '1.0', '1.1', T0 + dt));
  const turns = async (n = 5) => {
    for (let i = 0; i < n; i++) await new Promise<void>((done) => setImmediate(done));
  };
  const lockstepFeed = (rounds: FeedSettleRounds) =>
    new MarketFeed(
      listFeed(pushes),
      { mode: 'lockstep' },
      fakeTimer(),
      () => undefined,
      () => undefined,
      undefined,
      undefined,
      rounds,
    );

  it('releases the next event only once the client acknowledged each settle frame, while there is something to settle', async () => {
    // The client's commands on event 1 got replies (round 1), and what it sent on those got more (round 2).
    let toSettle = 0;
    const frames: number[] = [];
    const feed = lockstepFeed({
      frame: (round) => {
        if (toSettle === 0) return false;
        toSettle--;
        frames.push(round);
        return true;
      },
      step: () => false,
    });
    feed.start();
    feed.ack(0, { settle: 0 });
    await feed.until(1);
    toSettle = 2;
    feed.ack(1, { settle: 0 });
    await turns();
    expect(frames).toEqual([1]);
    expect(feed.released).toBe(1);
    feed.ack(1, { settle: 1 });
    await turns();
    expect(frames).toEqual([1, 2]);
    expect(feed.released).toBe(1);
    feed.ack(1, { settle: 2 });
    await feed.until(2);
    expect(feed.released).toBe(2);
    await feed.stop();
  });

  it('runs no settle round for a client whose acks never said settle', async () => {
    const frames: number[] = [];
    const feed = lockstepFeed({
      frame: (round) => {
        frames.push(round);
        return true;
      },
      step: () => true,
    });
    feed.start();
    feed.ack(0);
    await feed.until(1);
    feed.ack(1);
    await feed.until(2);
    expect(feed.released).toBe(2);
    expect(frames).toEqual([]);
    await feed.stop();
  });

  it(`runs at most ${LOCKSTEP_SETTLE_ROUNDS} settle rounds between two events, for a client whose every reaction makes another`, async () => {
    const frames: number[] = [];
    const feed: MarketFeed = lockstepFeed({
      frame: (round) => {
        frames.push(round);
        queueMicrotask(() => feed.ack(1, { settle: round }));
        return true;
      },
      step: () => false,
    });
    feed.start();
    feed.ack(0, { settle: 0 });
    await feed.until(1);
    frames.length = 0;
    feed.ack(1, { settle: LOCKSTEP_SETTLE_ROUNDS });
    await feed.until(2);
    expect(feed.released).toBe(2);
    expect(frames).toHaveLength(LOCKSTEP_SETTLE_ROUNDS);
    await feed.stop();
  });
});
