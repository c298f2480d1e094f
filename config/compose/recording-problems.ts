import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { CsvImportError } from '../../backtest/csv/index.ts';
import { shownPath } from '../../backtest/report/index.ts';
import type { ConfigProblem, LoadedConfig } from '../loader/index.ts';

/** A recording file a config names, and where (its YAML path). */
export interface NamedFile {
  readonly path: string;
  readonly at: readonly (string | number)[];
  /** For an OHLCV CSV (which has no header to read it from): the sym its bars are of. */
  readonly csvSym?: string;
}

/**
 * The recordings a config replays: a backtest's (its OHLCV CSVs too, at their `csv` key), or a
 * paper run's recorded source.
 * @param loaded - a validated config
 * @returns each path as written, with its YAML path; empty for live runs and SYNTHETIC paper sources
 */
export function replayedRecordings(loaded: LoadedConfig): NamedFile[] {
  const { config } = loaded;
  if (config.mode === 'paper') {
    const source = config.paper?.source;
    return source?.kind === 'recording' ? [{ path: source.path, at: ['paper', 'source', 'path'] }] : [];
  }
  if (config.mode !== 'backtest') return [];
  return (config.backtest?.recordings ?? []).map((entry, index) =>
    typeof entry === 'string'
      ? { path: entry, at: ['backtest', 'recordings', index] }
      : { path: entry.csv, at: ['backtest', 'recordings', index, 'csv'], csvSym: entry.sym },
  );
}

/**
 * The warm-up history files a config names: its recordings, and its OHLCV CSVs at their `csv` key.
 * @param loaded - a validated config
 * @returns each path as written, with its YAML path; empty without `warmUp.history`
 */
export function warmUpHistoryFiles(loaded: LoadedConfig): NamedFile[] {
  return (loaded.config.warmUp?.history ?? []).map((source, index) =>
    typeof source === 'string'
      ? { path: source, at: ['warmUp', 'history', index] }
      : { path: source.csv, at: ['warmUp', 'history', index, 'csv'], csvSym: source.sym },
  );
}

/**
 * The recordings a backtest config names, the recording a paper run replays, and the warm-up
 * history files of any config, that are not there, each as a problem located at its line, so `keel validate`, `keel backtest` and
 * `keel run` refuse them like any other config mistake.
 * @param loaded - a validated config
 * @returns one problem per missing file (relative paths start at the config's directory); empty
 *   when every file exists
 */
export function missingRecordingProblems(loaded: LoadedConfig): ConfigProblem[] {
  return [...replayedRecordings(loaded), ...warmUpHistoryFiles(loaded)].flatMap(({ path, at }) => {
    const file = resolve(loaded.dir, path);
    return existsSync(file) ? [] : [loaded.source.problem([...at], `names no such file: ${file}`)];
  });
}

/**
 * The `--recording` paths that are not there, one sentence each.
 * @param recordings - the paths as typed
 * @returns e.g. `✖ --recording out/x.jsonl.gz: no such file`
 */
export function missingRecordingOptions(recordings: readonly string[]): string[] {
  return recordings
    .filter((path) => !existsSync(resolve(path)))
    .map((path) => `✖ --recording ${path}: no such file`);
}

/**
 * A backtest's OHLCV CSV that cannot be read as bars, as a problem located at its entry's `csv`
 * line, so the CSV reader's sentence (file, line, what is wrong) also says which entry of the
 * config named it.
 * @param loaded - a validated config of mode backtest
 * @param error - what the run threw
 * @returns the problem, or undefined when the error is not about one of the config's CSVs
 */
export function csvRecordingProblem(loaded: LoadedConfig, error: unknown): ConfigProblem | undefined {
  if (!(error instanceof CsvImportError)) return undefined;
  const index = (loaded.config.backtest?.recordings ?? []).findIndex(
    (entry) => typeof entry !== 'string' && shownPath(resolve(loaded.dir, entry.csv)) === error.file,
  );
  return index === -1
    ? undefined
    : loaded.source.problem(['backtest', 'recordings', index, 'csv'], error.message);
}
