import { existsSync, renameSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { DateTime } from 'luxon';

const RECORDING_EXTENSION = /(\.jsonl(?:\.gz)?)$/i;

/**
 * The name an earlier recording is kept under: its stem, the UTC time it was last written and
 * its extension, e.g. `paper-session.20261128T193012Z.jsonl.gz` (Keel's choice: sorts by time,
 * and a backtest of it reads it like any recording). `-2`, `-3`... when that name is taken.
 */
function keptName(path: string, modifiedMs: number): string {
  const name = basename(path);
  const match = RECORDING_EXTENSION.exec(name);
  const extension = match?.[1] ?? '';
  const stem = name.slice(0, name.length - extension.length);
  const stamp = DateTime.fromMillis(modifiedMs, { zone: 'utc' }).toFormat("yyyyLLdd'T'HHmmss'Z'");
  const at = (suffix: string) => join(dirname(path), `${stem}.${stamp}${suffix}${extension}`);
  let candidate = at('');
  for (let n = 2; existsSync(candidate); n++) candidate = at(`-${n}`);
  return candidate;
}

/**
 * Moves a recording about to be replaced out of the way, so a new session never overwrites what
 * an earlier one recorded (a live session's frames cannot be fetched again), nor `keel
 * import-csv` a recording at its `--out`. An empty file (nothing but a header never written) is
 * left to be replaced.
 * @param path - the recording path a new session is about to open, or an import to write
 * @returns where the earlier recording now is, or undefined when there was none to keep
 */
export function keepPreviousRecording(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  const stat = statSync(path);
  if (!stat.isFile() || stat.size === 0) return undefined;
  const kept = keptName(path, stat.mtimeMs);
  renameSync(path, kept);
  return kept;
}
