import { cpSync } from 'node:fs';
import { basename } from 'node:path';
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

function syntheticVenue(dataDir: string, timer: FakeTimer, speed = 1): Promise<PaperVenue> {
  return startPaperVenue({
    instruments: Object.values(SYNTHETIC_INSTRUMENTS),
    startingBalances: { USDT: D(100_000) },
    feed: syntheticFeed({ seed: 1, startTime: STARTED }),
    pacing: { mode: 'realtime', speed, eventsOnWallClock: true },
    timer,
    dataDir,
  });
}

/** Lets the venue release what is due by `due` (it yields to sockets every 256 events). */
async function caughtUpTo(venue: PaperVenue, timer: FakeTimer, due: number): Promise<void> {
  for (let i = 0; i < 1_000 && venue.serverNow() < due - 5_000; i++) await timer.advance(0);
}

/** Lets the venue release what is due by the fake clock now. */
function caughtUp(venue: PaperVenue, timer: FakeTimer): Promise<void> {
  return caughtUpTo(venue, timer, timer.now());
}

/** Runs the venue's feed on for `ms` of the fake wall clock, a second at a time. */
async function runFor(timer: FakeTimer, ms: number): Promise<void> {
  for (let left = ms; left > 0; left -= 1_000) await timer.advance(Math.min(1_000, left));
}

/** The data dir as a venue killed now leaves it: its files as last written, without its lock. */
function copiedAsKilled(dataDir: string, into: string): string {
  cpSync(dataDir, into, { recursive: true, filter: (path) => basename(path) !== 'paper-venue.lock' });
  return into;
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

  it("keeps a sped-up SYNTHETIC venue's clock running at its speed through a restart's downtime", async () => {
    const dataDir = aDataDir();
    const timer = fakeTimer(STARTED);
    const first = await syntheticVenue(dataDir, timer, 10);
    await runFor(timer, 20_000);
    const stopped = first.serverNow();
    // At 10x the venue's clock runs ahead of the machine's: 20 s of wall time are 200 s of its.
    expect(stopped).toBeGreaterThan(STARTED + 190_000);
    await first.close();

    await timer.advance(25_000);
    const second = await syntheticVenue(dataDir, timer, 10);
    const due = stopped + 250_000;
    // A client answered while the downtime's events are still going out already reads that clock.
    expect(second.serverNow()).toBeGreaterThan(due - 1_000);
    await caughtUpTo(second, timer, due);
    expect(second.serverNow()).toBeGreaterThan(due - 5_000);
    expect(second.serverNow()).toBeLessThanOrEqual(due);
    await runFor(timer, 1_000);
    expect(second.serverNow()).toBeGreaterThan(due + 5_000);
    await second.close();
  });

  it('resumes that clock from its last debounced snapshot after a crash, downtime included', async () => {
    const timer = fakeTimer(STARTED);
    const runningDir = aDataDir();
    const running = await syntheticVenue(runningDir, timer, 10);
    await runFor(timer, 20_000);
    // The snapshot was written within the last second (debounced): the clock read when it was.
    const killed = running.serverNow();
    const dataDir = copiedAsKilled(runningDir, aDataDir());
    await running.close();

    await timer.advance(25_000);
    const restarted = await syntheticVenue(dataDir, timer, 10);
    const due = killed + 250_000;
    await caughtUpTo(restarted, timer, due);
    expect(restarted.serverNow()).toBeGreaterThan(due - 5_000);
    expect(restarted.serverNow()).toBeLessThanOrEqual(due);
    await restarted.close();
  });
});
