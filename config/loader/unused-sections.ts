import type { RunMode } from '../schema/index.ts';
import type { LoadedConfig } from './load-config.ts';

/** The top-level sections that apply to some modes only, with the modes they apply to. */
export const SECTION_MODES: Readonly<Record<string, readonly RunMode[]>> = {
  backtest: ['backtest'],
  paper: ['paper'],
  venue: ['live', 'paper'],
  recording: ['live', 'paper'],
  shutdown: ['live', 'paper'],
  // The venue session and `keel record` (live and paper configs only) serve metrics and log at
  // the level.
  metrics: ['live', 'paper'],
  logging: ['live', 'paper'],
};

/** What stands in for a section in a mode that ignores it, where a user would look for it. */
const INSTEAD: Readonly<Record<string, string>> = {
  'backtest@paper':
    "; paper fills pay the instruments' own fee rates (instruments[].overrides.makerFee / takerFee) with the sub-portfolio markups, not backtest.fees",
  'backtest@live': '; live fills pay what the venue charges',
};

/**
 * Sections written in a config that its mode ignores (a `backtest` section in a paper config, a
 * `paper`, `venue`, `recording`, `shutdown`, `metrics` or `logging` section in a backtest, ...): they validate, as a
 * config may switch modes by one line, but nothing reads them, so a setting there (e.g.
 * `backtest.fees`) silently does not apply. Only sections written in the file or by `--set`
 * count, not defaults.
 * @param loaded - a validated config
 * @returns one sentence per ignored section, with where it was written
 */
export function unusedSectionWarnings(loaded: LoadedConfig): string[] {
  const { mode } = loaded.config;
  return Object.entries(SECTION_MODES).flatMap(([section, modes]) => {
    if (modes.includes(mode)) return [];
    const written = loaded.source.lookup([section]).node !== undefined;
    const where = written
      ? loaded.source.where([section], 'key').where
      : loaded.source.overrideUnder([section]);
    if (where === undefined) return [];
    const applies = modes.join(' and ');
    return [
      `${section} is ignored in mode ${mode}: it applies to mode ${applies} only${INSTEAD[`${section}@${mode}`] ?? ''} (${where})`,
    ];
  });
}
