import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { LoadedConfig } from '../loader/index.ts';
import { strategySource } from '../schema/index.ts';
import { replayedRecordings } from './recording-problems.ts';
import { csvPathsOf, reportPathsOf } from './run-outputs.ts';

/** A run's output is one of its inputs or another output: the run is refused before it starts. */
export class OutputCollision extends Error {}

/** A file a run reads or writes, and what it is to the run (`report.html`, `the recording`). */
export interface RunFile {
  readonly what: string;
  readonly path: string;
}

/** What a session's recording is to the run, as an output. */
const RECORDING_PATH = 'recording.path';

/** What a warm-up history file is to the run, as an input. */
const WARM_UP_HISTORY = 'the warm-up history file';

/**
 * What names one file: its device and inode when it exists (so a symlink or hard link to an input
 * is that input), else its path with the directory's links resolved.
 */
function fileKey(path: string): string {
  const full = resolve(path);
  try {
    const stats = statSync(full);
    return `inode:${stats.dev}:${stats.ino}`;
  } catch {
    try {
      return `path:${join(realpathSync(dirname(full)), basename(full))}`;
    } catch {
      return `path:${full}`;
    }
  }
}

/**
 * The first output of a run that is the same file as one of its inputs or as another output, said
 * in a sentence; a run refuses such paths before it starts, so a report never overwrites the
 * recording, config or strategy module it came from, nor another report file. A session's
 * `recording.path` may be its warm-up history: the recorder moves the earlier file aside, and
 * the warm-up reads it there.
 * @param outputs - the files the run writes
 * @param inputs - the files the run reads
 * @returns the sentence, or undefined when every output is a file of its own
 */
export function outputCollision(outputs: readonly RunFile[], inputs: readonly RunFile[]): string | undefined {
  const taken = new Map<string, RunFile>();
  for (const input of inputs) {
    const key = fileKey(input.path);
    if (!taken.has(key)) taken.set(key, input);
  }
  for (const output of outputs) {
    const key = fileKey(output.path);
    const other = taken.get(key);
    // A session's recorder moves an earlier recording at its path aside, and the warm-up reads it
    // there: recording a session where its history was recorded writes over nothing.
    if (other !== undefined && !(output.what === RECORDING_PATH && other.what === WARM_UP_HISTORY)) {
      return `${output.what} ${output.path} is the same file as ${other.what} ${other.path}: a run never writes over its inputs or one output over another; choose another path`;
    }
    taken.set(key, output);
  }
  return undefined;
}

/**
 * The files a configured run writes: its result JSON, the CSVs next to it, the HTML report and
 * (live and paper) the recording it makes.
 * @param loaded - a validated config
 * @returns the files, named by their config key
 */
export function runOutputFiles(loaded: LoadedConfig): RunFile[] {
  const { json, html } = reportPathsOf(loaded.config);
  const recording = loaded.config.mode === 'backtest' ? undefined : loaded.config.recording?.path;
  return [
    { what: 'report.json', path: json },
    { what: 'report.html', path: html },
    ...csvPathsOf(json).map((path) => ({ what: 'the result CSV', path })),
    ...(recording === undefined ? [] : [{ what: RECORDING_PATH, path: resolve(recording) }]),
  ];
}

/**
 * The files `keel record` must not write its recording over: those a session of its config reads
 * (see {@link runInputFiles}: the config, the recording its paper venue replays, the strategy
 * modules), but its warm-up history files, which it does not read (the recorder moves an earlier
 * file at its path aside, as a session's does).
 * @param loaded - a validated config of mode live or paper
 * @returns the files, named by what they are to the run
 */
export function recordInputFiles(loaded: LoadedConfig): RunFile[] {
  return runInputFiles(loaded).filter((file) => file.what !== WARM_UP_HISTORY);
}

/**
 * The files a configured run reads: the config, its recordings (or the `--recording` paths that
 * replace them), its warm-up history files and its strategy modules.
 * @param loaded - a validated config
 * @param recordings - `--recording` paths replacing the config's
 * @returns the files, named by what they are to the run
 */
export function runInputFiles(loaded: LoadedConfig, recordings?: readonly string[]): RunFile[] {
  const { config } = loaded;
  const replayed =
    recordings !== undefined && recordings.length > 0
      ? recordings.map((path) => resolve(path))
      : replayedRecordings(loaded).map(({ path }) => resolve(loaded.dir, path));
  const history = (config.warmUp?.history ?? []).map((source) =>
    resolve(loaded.dir, typeof source === 'string' ? source : source.csv),
  );
  const modules = config.strategies.flatMap((strategy) => {
    const source = strategySource(strategy.use, loaded.dir);
    return source.kind === 'module' ? [source.path] : [];
  });
  return [
    { what: 'the config', path: loaded.file },
    ...replayed.map((path) => ({ what: 'the recording', path })),
    ...history.map((path) => ({ what: WARM_UP_HISTORY, path })),
    ...modules.map((path) => ({ what: 'the strategy module', path })),
  ];
}
