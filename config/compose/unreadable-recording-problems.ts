import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { readSessionHeader } from '../../backtest/recording/index.ts';
import { shownPath } from '../../backtest/report/index.ts';
import type { ConfigProblem, LoadedConfig } from '../loader/index.ts';
import { csvRecordingHint } from './csv-recording-hint.ts';
import { looksLikeCsv } from './looks-like-csv.ts';
import { replayedRecordings, warmUpHistoryFiles } from './recording-problems.ts';

/**
 * The recordings a config replays (a backtest's plain entries, a paper run's recorded source) or
 * warms up on (`warmUp.history`'s plain entries) whose header line cannot be read, each as a problem located at its entry's line, so `keel
 * validate` refuses what `keel backtest` and `keel run` would, and they say where the config
 * named it. An OHLCV CSV named as a recording gets {@link csvRecordingHint} instead of the
 * reader's "header is not JSON". A file that is not there is left to `missingRecordingProblems`.
 * @param loaded - a validated config
 * @returns one problem per unreadable recording; empty when every header reads
 */
export async function unreadableRecordingProblems(loaded: LoadedConfig): Promise<ConfigProblem[]> {
  const problems: ConfigProblem[] = [];
  for (const { path, at, csvSym } of [...replayedRecordings(loaded), ...warmUpHistoryFiles(loaded)]) {
    const file = resolve(loaded.dir, path);
    if (csvSym !== undefined || !existsSync(file)) continue;
    try {
      await readSessionHeader(file);
    } catch (error) {
      const message = looksLikeCsv(file)
        ? `names ${path}, ${csvRecordingHint(shownPath(file), at[0] === 'paper' ? undefined : path, at[0] === 'warmUp' ? 'warmUp.history' : 'backtest.recordings')}`
        : `names a recording whose header cannot be read: ${(error as Error).message}`;
      problems.push(loaded.source.problem([...at], message));
    }
  }
  return problems;
}
