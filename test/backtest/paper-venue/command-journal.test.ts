import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { CommandJournal } from '../../../backtest/paper-venue/command-journal.ts';
import type { MarketFeed } from '../../../backtest/paper-venue/market-feed.ts';
import type { JournalEntry } from '../../../backtest/paper-venue/persistence.ts';
import { VenueClock } from '../../../backtest/paper-venue/venue-clock.ts';
import { snapshotOf } from '../../../backtest/paper-venue/venue-snapshot.ts';

/** A full garbage collection, without starting node with --expose-gc. */
function fullGc(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

describe('paper venue command journal', () => {
  it('hands each entry to the command log and keeps none, while the snapshot still counts them all', async () => {
    const clock = new VenueClock();
    const logged: [number, number][] = [];
    const handed: WeakRef<JournalEntry>[] = [];
    const journal = new CommandJournal(
      new Map(),
      clock,
      { afterOrderEntry: (_name, work) => work(undefined) },
      (entry, index) => {
        logged.push([index, 'tickTo' in entry ? entry.tickTo : -1]);
        handed.push(new WeakRef(entry));
      },
    );
    for (let i = 1; i <= 1_000; i++) journal.tick(i * 10);

    expect(logged.slice(0, 2)).toEqual([
      [0, 10],
      [1, 20],
    ]);
    expect(logged.at(-1)).toEqual([999, 10_000]);
    expect(clock.now()).toBe(10_000);
    const feed = { released: 0 } as MarketFeed;
    const serverClock = () => ({ wall: 0, venue: clock.now() });
    expect(snapshotOf({ books: new Map(), journal, feed, clock, serverClock }).journalLength).toBe(1_000);
    // A WeakRef holds its target until the current job ends: collect after it.
    await new Promise((resolve) => setImmediate(resolve));
    fullGc();
    expect(handed.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
  });

  it('neither numbers nor runs an entry the log could not take: the next entry gets its index', () => {
    const clock = new VenueClock();
    const logged: number[] = [];
    let full = false;
    const journal = new CommandJournal(
      new Map(),
      clock,
      { afterOrderEntry: (_name, work) => work(undefined) },
      (_entry, index) => {
        if (full) throw new Error('ENOSPC');
        logged.push(index);
      },
    );
    journal.tick(10);
    full = true;
    expect(() => journal.tick(20)).toThrow('ENOSPC');
    expect(journal.length).toBe(1);
    expect(clock.now()).toBe(10);
    full = false;
    journal.tick(30);
    expect(logged).toEqual([0, 1]);
    expect(journal.length).toBe(2);
    expect(clock.now()).toBe(30);
  });
});
