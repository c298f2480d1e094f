import type { OhlcvCsvSource } from '../csv/index.ts';

/**
 * What a backtest replays: a session recording (its path), or an OHLCV CSV read on the fly into
 * the same closed KLINE pushes `keel import-csv` writes (in memory: nothing is written, and no
 * event cache is kept of it).
 */
export type ReplaySource = string | OhlcvCsvSource;

/**
 * The name a replay source goes by in the result's warnings and `meta.recordings`: the
 * recording's path, or the CSV's.
 * @param source - the recording or CSV
 * @returns its path
 */
export function replaySourceName(source: ReplaySource): string {
  return typeof source === 'string' ? source : source.input;
}
