import { resolve } from 'node:path';
import { readSessionHeader } from '../../backtest/recording/index.ts';
import type { LoadedConfig } from '../loader/index.ts';
import { replayedRecordings } from './recording-problems.ts';

/**
 * Instruments of a config that no recording it replays covers, read from the recordings' header
 * lines (their `symbols`) without reading the data: a strategy trading such an instrument gets
 * none of its market data, which a run says only once it has replayed everything. A recording
 * whose header cannot be read is warned of too (the run itself refuses it).
 * @param loaded - a validated config whose recordings exist
 * @returns one sentence per uncovered instrument or unreadable recording; empty for live runs,
 *   a SYNTHETIC paper source, and recordings that cover every instrument
 */
export async function recordingSymWarnings(loaded: LoadedConfig): Promise<string[]> {
  const paths = replayedRecordings(loaded).map((file) => file.path);
  if (paths.length === 0) return [];
  const warnings: string[] = [];
  const covered = new Set<string>();
  for (const path of paths) {
    try {
      for (const sym of (await readSessionHeader(resolve(loaded.dir, path))).symbols) covered.add(sym);
    } catch (error) {
      warnings.push(`cannot read the header of the recording ${path}: ${(error as Error).message}`);
    }
  }
  if (warnings.length > 0) return warnings;
  const held = covered.size === 0 ? 'none' : [...covered].sort().join(', ');
  for (const { sym } of loaded.config.instruments) {
    if (covered.has(sym)) continue;
    warnings.push(
      `instrument ${sym} is in no recording's symbols (they hold ${held}): strategies get none of its market data and nothing of it trades`,
    );
  }
  return warnings;
}
