import type { z } from 'zod';
import { keelConfigSchema, RUN_MODES } from '../schema/index.ts';
import { SECTION_MODES } from './section-modes.ts';

/** A config's data with its incomplete ignored sections left out, and what is wrong in them. */
export interface IgnoredSectionsCheck {
  /** The data to validate as a whole. */
  readonly data: unknown;
  /** What is wrong in the sections left out, other than a missing key (paths from the config's root). */
  readonly issues: readonly z.core.$ZodIssue[];
}

/**
 * A section its config's mode ignores (e.g. `backtest: { fees: ... }` in a paper config) need not
 * be complete: nothing reads it, and `unusedSectionWarnings` says so. Such a section is checked
 * on its own for what is written in it (types, bounds, unknown keys) but not for keys it lacks;
 * one that lacks keys is left out of the data validated as a whole, so the validated config does
 * not hold it. A complete one stays, as it validates anyway.
 * @param data - the config's data, before validation
 * @returns the data to validate, and the issues of the sections left out
 */
export function setAsideIncompleteIgnoredSections(data: unknown): IgnoredSectionsCheck {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { data, issues: [] };
  const config = data as Record<string, unknown>;
  const mode = RUN_MODES.find((m) => m === config.mode);
  if (mode === undefined) return { data, issues: [] };
  const kept: Record<string, unknown> = { ...config };
  const issues: z.core.$ZodIssue[] = [];
  for (const [section, modes] of Object.entries(SECTION_MODES)) {
    if (modes.includes(mode) || config[section] === undefined) continue;
    const schema = keelConfigSchema.shape[section as keyof typeof keelConfigSchema.shape];
    const parsed = schema.safeParse(config[section], { reportInput: true });
    if (parsed.success || !parsed.error.issues.some(isMissingKey)) continue;
    delete kept[section];
    for (const issue of parsed.error.issues)
      if (!isMissingKey(issue)) issues.push({ ...issue, path: [section, ...issue.path] });
  }
  return { data: kept, issues };
}

/** An issue of a key that is not written (zod's "required", with `reportInput`). */
function isMissingKey(issue: z.core.$ZodIssue): boolean {
  return (issue.code === 'invalid_type' || issue.code === 'invalid_value') && issue.input === undefined;
}
