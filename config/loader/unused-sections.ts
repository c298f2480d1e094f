import type { LoadedConfig } from './load-config.ts';
import { SECTION_MODES } from './section-modes.ts';

/** What stands in for a section in a mode that ignores it, where a user would look for it. */
const INSTEAD: Readonly<Record<string, string>> = {
  'backtest@paper':
    "; paper fills pay the instruments' own fee rates (instruments[].overrides.makerFee / takerFee) with the sub-portfolio markups, not backtest.fees",
  'backtest@live': '; live fills pay what the venue charges',
};

/**
 * Sections written in a config that its mode ignores (a `backtest` section in a paper config, a
 * `paper`, `venue`, `recording`, `shutdown`, `metrics` or `logging` section in a backtest, ...):
 * what is written in them validates, as a config may switch modes by one line (their keys are
 * not required there, see `setAsideIncompleteIgnoredSections`), but nothing reads them, so a
 * setting there (e.g. `backtest.fees`) silently does not apply. Only sections written in the file
 * or by `--set` count, not defaults.
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
