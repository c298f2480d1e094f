import { closeSync, openSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { makePrivateDirSync } from '../../backtest/files/index.ts';
import { shownPath } from '../../backtest/report/index.ts';
import type { ConfigProblem, LoadedConfig, YamlPath } from '../loader/index.ts';
import { csvPathsOf, reportPathsOf } from './run-outputs.ts';

/** A file a run writes, with the config key that puts it there. */
export interface OutputPath {
  /** The config key, e.g. `['report', 'html']`. */
  readonly key: YamlPath;
  /** The file, absolute. */
  readonly path: string;
}

/**
 * Why a file cannot be created in a folder, tried by creating (then removing) a file of its own
 * there: the only test that answers for a read-only mount, a pseudo file system (`/proc`) or a
 * root user, whom `access(2)` lets write anywhere.
 * @param folder - the folder, which exists
 * @param name - a name to derive the probe's from (the file that will be written)
 * @returns the file system's message, or undefined when a file can be created there
 */
export function folderWriteProblem(folder: string, name: string): string | undefined {
  const probe = join(folder, `.${name}.${process.pid}.${Date.now().toString(36)}.probe`);
  try {
    closeSync(openSync(probe, 'wx', 0o600));
  } catch (error) {
    return (error as Error).message;
  }
  try {
    unlinkSync(probe);
  } catch {
    // The probe is empty and named as Keel's: left behind, it harms nothing.
  }
  return undefined;
}

/**
 * Why a file a run will write cannot be written: its folder cannot be made (a file on the way)
 * or written in (read-only, a pseudo file system), or a directory is where the file goes. The
 * folder is made when missing (0700, as Keel makes every folder for its outputs).
 * @param path - the file
 * @param probed - each folder's answer of {@link folderWriteProblem} so far: a run's dozen outputs
 *   share one or two folders, each tried once
 * @returns one sentence, or undefined when it can be written
 */
function outputPathProblem(path: string, probed: Map<string, string | undefined>): string | undefined {
  const full = resolve(path);
  const folder = dirname(full);
  try {
    makePrivateDirSync(folder);
    if (statSync(full, { throwIfNoEntry: false })?.isDirectory() === true)
      return 'a directory is where the file goes';
  } catch (error) {
    return (error as Error).message;
  }
  if (!probed.has(folder)) probed.set(folder, folderWriteProblem(folder, basename(full)));
  return probed.get(folder);
}

/**
 * Every file a configured run writes, by the config key that places it: `report.json` (with the
 * CSVs next to it and its run lock), `report.html` (and its lock) and, live and paper,
 * `recording.path` (and its lock).
 * @param loaded - a validated config
 * @returns the files, absolute
 */
export function runOutputPaths(loaded: LoadedConfig): OutputPath[] {
  const { json, html } = reportPathsOf(loaded.config);
  const recording = loaded.config.mode === 'backtest' ? undefined : loaded.config.recording?.path;
  const jsonKey = ['report', 'json'];
  const htmlKey = ['report', 'html'];
  return [
    { key: jsonKey, path: json },
    { key: jsonKey, path: `${json}.lock` },
    ...csvPathsOf(json).map((path) => ({ key: jsonKey, path })),
    { key: htmlKey, path: html },
    { key: htmlKey, path: `${html}.lock` },
    ...(recording === undefined
      ? []
      : [
          { key: ['recording', 'path'], path: resolve(recording) },
          { key: ['recording', 'path'], path: `${resolve(recording)}.lock` },
        ]),
  ];
}

/**
 * The outputs of a configured run that cannot be written, each a problem at its config key (its
 * YAML line or `--set` argument; a key left to its default says so), checked before the run
 * starts, so a run never ends by throwing away what it computed (exit 2, not 1 after the work).
 * @param loaded - a validated config
 * @returns one problem per config key at fault (its first unwritable file); empty when all can be written
 */
export function outputPathProblems(loaded: LoadedConfig): ConfigProblem[] {
  const problems = new Map<string, ConfigProblem>();
  const probed = new Map<string, string | undefined>();
  for (const { key, path } of runOutputPaths(loaded)) {
    const name = key.join('.');
    if (problems.has(name)) continue;
    const why = outputPathProblem(path, probed);
    if (why === undefined) continue;
    const message = `cannot be written: ${shownPath(path)}: ${why}`;
    const set =
      loaded.source.lookup(key).node !== undefined || loaded.source.overrideUnder(key) !== undefined;
    problems.set(
      name,
      set
        ? loaded.source.problem(key, message)
        : {
            path: [],
            subject: name,
            message: `${message} (not set in ${shownPath(loaded.file)}: its default)`,
            where: '',
          },
    );
  }
  return [...problems.values()];
}

/** Outputs of a run that cannot be written, found before it starts: a config problem (exit 2). */
export class UnwritableOutputs extends Error {
  /**
   * @param problems - at least one, from {@link outputPathProblems}
   */
  constructor(readonly problems: readonly ConfigProblem[]) {
    super(problems.map((problem) => `${problem.subject} ${problem.message}`).join('\n'));
    this.name = 'UnwritableOutputs';
  }
}
