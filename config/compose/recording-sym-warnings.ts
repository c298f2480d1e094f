import { resolve } from 'node:path';
import { readSessionHeader } from '../../backtest/recording/index.ts';
import type { LoadedConfig } from '../loader/index.ts';
import { replayedRecordings } from './recording-problems.ts';

/**
 * Instruments of a config that no recording it replays covers, read from the recordings' header
 * lines (their `symbols`; an OHLCV CSV's `sym`) without reading the data: a strategy trading such an instrument gets
 * none of its market data, which a run says only once it has replayed everything. A recording
 * whose header cannot be read leaves nothing to warn of: `unreadableRecordingProblems` refuses it.
 * @param loaded - a validated config whose recordings exist
 * @returns one sentence per uncovered instrument; empty for live runs, an unreadable recording,
 *   a SYNTHETIC paper source, and recordings that cover every instrument
 */
export async function recordingSymWarnings(loaded: LoadedConfig): Promise<string[]> {
  const files = replayedRecordings(loaded);
  if (files.length === 0) return [];
  const warnings: string[] = [];
  const covered = new Set<string>();
  for (const { path, csvSym } of files) {
    if (csvSym !== undefined) {
      covered.add(csvSym);
      continue;
    }
    try {
      for (const sym of (await readSessionHeader(resolve(loaded.dir, path))).symbols) covered.add(sym);
    } catch {
      return [];
    }
  }
  const held = covered.size === 0 ? 'none' : [...covered].sort().join(', ');
  for (const { sym } of loaded.config.instruments) {
    if (covered.has(sym)) continue;
    warnings.push(
      `instrument ${sym} is in no recording's symbols (they hold ${held}): strategies get none of its market data and nothing of it trades`,
    );
  }
  return warnings;
}

/**
 * Warm-up history that cannot warm up anything: an OHLCV CSV entry whose `sym` is not one of the
 * config's instruments, and history whose files (CSV syms, recordings' header `symbols`) name
 * none of them; the kernel hands strategies only the run's instruments, so such history is read
 * and ignored, and the strategies start cold. A recording whose header cannot be read is left
 * to the run (it refuses it).
 * @param loaded - a validated config whose history files exist
 * @returns one sentence per problem; empty without warm-up history
 */
export async function warmUpHistorySymWarnings(loaded: LoadedConfig): Promise<string[]> {
  const history = loaded.config.warmUp?.history ?? [];
  if (history.length === 0) return [];
  const instruments = new Set(loaded.config.instruments.map((instrument) => instrument.sym));
  const warnings: string[] = [];
  const held = new Set<string>();
  for (const [index, source] of history.entries()) {
    if (typeof source !== 'string') {
      held.add(source.sym);
      if (!instruments.has(source.sym))
        warnings.push(
          `warmUp.history[${index}] is for ${source.sym}, which is not one of the instruments: nothing warms up on it`,
        );
      continue;
    }
    try {
      for (const sym of (await readSessionHeader(resolve(loaded.dir, source))).symbols) held.add(sym);
    } catch {
      return warnings;
    }
  }
  if (![...held].some((sym) => instruments.has(sym)))
    warnings.push(
      `warmUp.history holds none of the instruments (${[...instruments].join(', ')}; it holds ${[...held].sort().join(', ') || 'none'}): the strategies start cold`,
    );
  return warnings;
}
