import type { ConfigProblem, LoadedConfig } from '../loader/index.ts';
import { missingRecordingProblems } from './recording-problems.ts';
import { unreadableRecordingProblems } from './unreadable-recording-problems.ts';

/**
 * What keeps a run from reading the files its config names: files that are not there, else
 * recordings whose header cannot be read (an OHLCV CSV named as a recording), each located at
 * its YAML line, so `keel validate`, `keel backtest`, `keel sweep` and `keel run` refuse them alike.
 * @param loaded - a validated config
 * @returns the problems; empty when every file can be read
 */
export async function configRecordingProblems(loaded: LoadedConfig): Promise<ConfigProblem[]> {
  const missing = missingRecordingProblems(loaded);
  return missing.length > 0 ? missing : await unreadableRecordingProblems(loaded);
}
