import { describe, expect, it } from 'vitest';
import { eventCacheLines } from '../../../../config/cli/commands/event-cache-lines.ts';
import type { EventCacheFile } from '../../../../config/compose/backtest-run.ts';

const cache = (i: number, present: boolean, reused: boolean): EventCacheFile => ({
  recording: `/data/r${i}.jsonl`,
  data: `/data/r${i}.jsonl.events.bin`,
  present,
  reused,
});

describe("the summary's event cache lines", () => {
  it('count the caches of a run over many recordings in one line, naming only those that got none', () => {
    const caches = [
      ...Array.from({ length: 70 }, (_, i) => cache(i, true, true)),
      ...Array.from({ length: 3 }, (_, i) => cache(70 + i, true, false)),
      cache(73, false, false),
    ];
    expect(eventCacheLines(caches, true)).toEqual([
      '  event cache: 74 recordings, 70 reused, 3 built, 1 none kept (<recording>.events.bin + .json next to each; delete them any time, they are rebuilt)',
      '  event cache: none kept for /data/r73.jsonl (events it cannot hold, or the directory is read-only)',
    ]);
  });

  it("name a single recording's cache in full, and say when the cache is off", () => {
    expect(eventCacheLines([cache(0, true, false)], true)).toEqual([
      '  event cache: /data/r0.jsonl.events.bin (+ .json; delete it any time, it is rebuilt)',
    ]);
    expect(eventCacheLines([cache(0, false, false)], true)).toEqual([
      '  event cache: none kept for /data/r0.jsonl (events it cannot hold, or the directory is read-only)',
    ]);
    expect(eventCacheLines([], false)).toEqual(['  event cache: off (backtest.eventCache: false)']);
  });

  it('say a run over CSV entries only has no cache because CSVs are read without one, not that the config turned it off', () => {
    expect(eventCacheLines([], true)).toEqual(['  event cache: none (CSV entries are read without a cache)']);
  });
});
