import { shownPath } from '../../../backtest/report/index.ts';
import type { EventCacheFile } from '../../compose/backtest-run.ts';

/**
 * The summary's lines on the event caches: one recording's named in full; several recordings'
 * counted (kept ones reused or built by this run), each recording that got none named, so a run
 * over many recordings prints a line per problem, not one per recording. With no cache, why:
 * `backtest.eventCache` is off, or the run replays only OHLCV CSV entries, which are read without
 * one.
 * @param caches - the run's event caches (empty when `backtest.eventCache` is off or every source is a CSV entry)
 * @param cacheOn - whether `backtest.eventCache` is on (the default)
 * @returns the lines, indented as the summary's
 */
export function eventCacheLines(caches: readonly EventCacheFile[], cacheOn: boolean): string[] {
  if (caches.length === 0)
    return [
      cacheOn
        ? '  event cache: none (CSV entries are read without a cache)'
        : '  event cache: off (backtest.eventCache: false)',
    ];
  const missing = caches
    .filter((c) => !c.present)
    .map(
      (c) =>
        `  event cache: none kept for ${shownPath(c.recording)} (events it cannot hold, or the directory is read-only)`,
    );
  if (caches.length === 1)
    return caches[0]?.present === true
      ? [`  event cache: ${shownPath(caches[0].data)} (+ .json; delete it any time, it is rebuilt)`]
      : missing;
  const reused = caches.filter((c) => c.present && c.reused).length;
  const built = caches.filter((c) => c.present && !c.reused).length;
  const none = missing.length === 0 ? '' : `, ${missing.length} none kept`;
  return [
    `  event cache: ${caches.length} recordings, ${reused} reused, ${built} built${none} (<recording>.events.bin + .json next to each; delete them any time, they are rebuilt)`,
    ...missing,
  ];
}
