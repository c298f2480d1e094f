import { existsSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { csvRecordingHint } from '../compose/csv-recording-hint.ts';
import { missingRecordingOptions } from '../compose/recording-problems.ts';

/**
 * What is wrong with the `--recording` paths of `keel backtest`, `keel sweep` and `keel venue`, one
 * sentence each: a path that is not there, or an OHLCV CSV, which has no recording header to read
 * (the recording reader would say only "header is not JSON"); a CSV is first turned into a
 * recording by `keel import-csv`, or (for a command with a config) replayed as a `{ csv, sym }`
 * entry of `backtest.recordings`. The entry it suggests gives the path from the config's folder,
 * as those entries are read.
 * @param recordings - the paths as typed (relative to the working directory)
 * @param configDir - the config's folder; absent for `keel venue`, which reads no config
 * @returns e.g. `✖ --recording out/x.jsonl.gz: no such file`; empty when every path can be replayed
 */
export function recordingOptionProblems(recordings: readonly string[], configDir?: string): string[] {
  const csv = recordings
    .filter((path) => /\.csv$/i.test(path) && existsSync(resolve(path)))
    .map(
      (path) =>
        `✖ --recording ${path}: ${csvRecordingHint(path, configDir === undefined ? undefined : fromConfigDir(path, configDir))}`,
    );
  return [...missingRecordingOptions(recordings), ...csv];
}

/**
 * A path typed on the command line as a `backtest.recordings` entry reads it: from the config's
 * folder (`../data/x.csv` from a sibling folder), or absolute when it lies further out.
 */
function fromConfigDir(path: string, configDir: string): string {
  const fromDir = relative(configDir, resolve(path));
  return fromDir.startsWith(`..${sep}..`) || isAbsolute(fromDir) ? resolve(path) : fromDir;
}
