import { describe, expect, it } from 'vitest';
import {
  listFeed,
  MarketFeed,
  type PaperVenue,
  startPaperVenue,
  syntheticFeed,
} from '../../../backtest/paper-venue/index.ts';
import { SYNTHETIC_INSTRUMENTS } from '../../../backtest/synthetic/index.ts';
import { D } from '../../../core/model/index.ts';
import { T0 } from '../../kit/paper-venue-builders.ts';
import { bboPush } from '../../kit/paper-venue-client.ts';
import { tempDirsRemovedAfterEach } from '../../kit/temp-dirs.ts';
import { type FakeTimer, fakeTimer } from '../../kit/venue-fake-timer.ts';

const aDataDir = tempDirsRemovedAfterEach('paper-venue-wall-clock-');

/** The machine's clock when the venue first starts: 50 s into the minute its generator starts on. */
const STARTED = T0 + 50_000;

function pacedFeed(timer: FakeTimer, eventsOnWallClock: boolean) {
  const released: number[] = [];
  const pushes = [0, 10_000, 55_000, 60_000].map((dt) =>
    bboPush('BINANCE_PERP_BTC_USDT', '1.0', '1.1', T0 + dt),
  );
  const feed = new MarketFeed(listFeed(pushes), { mode: 'realtime', eventsOnWallClock }, timer, (item) =>
    released.push(item.event.recvTs - T0),
  );
  return { feed, released };
}

function syntheticVenue(dataDir: string, timer: FakeTimer): Promise<PaperVenue> {
  return startPaperVenue({
    instruments: Object.values(SYNTHETIC_INSTRUMENTS),
    startingBalances: { USDT: D(100_000) },
    feed: syntheticFeed({ seed: 1, startTime: STARTED }),
    pacing: { mode: 'realtime', eventsOnWallClock: true },
    timer,
    dataDir,
  });
}

/** Lets the venue release what is due by the fake clock now (it yields to sockets every 256 events). */
async function caughtUp(venue: PaperVenue, timer: FakeTimer): Promise<void> {
  for (let i = 0; i < 1_000 && venue.serverNow() < timer.now() - 5_000; i++) await timer.advance(0);
}

describe('a realtime feed whose events are stamped on the wall clock', () => {
  it('releases at once the events already due by the wall clock, then paces the rest from there', async () => {
    const timer = fakeTimer(STARTED);
    const { feed, released } = pacedFeed(timer, true);
    feed.start();
    await timer.advance(0);
    expect(released).toEqual([0, 10_000]);
    await timer.advance(4_999);
    expect(released).toEqual([0, 10_000]);
    await timer.advance(1);
    expect(released).toEqual([0, 10_000, 55_000]);
    await timer.advance(5_000);
    expect(released).toEqual([0, 10_000, 55_000, 60_000]);
    await feed.stop();
  });

  it('is paced from its first event otherwise, however far behind the wall clock that is', async () => {
    const timer = fakeTimer(STARTED);
    const { feed, released } = pacedFeed(timer, false);
    feed.start();
    await timer.advance(0);
    expect(released).toEqual([0]);
    await timer.advance(10_000);
    expect(released).toEqual([0, 10_000]);
    await feed.stop();
  });

  it("gives a SYNTHETIC venue the machine's clock at its first start and after a restart's downtime", async () => {
    const dataDir = aDataDir();
    const timer = fakeTimer(STARTED);
    const first = await syntheticVenue(dataDir, timer);
    await caughtUp(first, timer);
    // Its generator starts on the minute, 50 s before: the clock would start there.
    expect(first.serverNow()).toBeGreaterThan(STARTED - 5_000);
    await first.close();

    await timer.advance(10 * 60_000);
    const second = await syntheticVenue(dataDir, timer);
    await caughtUp(second, timer);
    // A clock 10 min behind the machine's refuses every request a client signs on its own clock.
    expect(second.serverNow()).toBeGreaterThan(timer.now() - 5_000);
    expect(second.serverNow()).toBeLessThanOrEqual(timer.now());
    await second.close();
  });
});
