import { LineCounter, parseDocument } from 'yaml';
import { type KeelConfig, keelConfigSchema, SECRET_PATHS } from '../schema/index.ts';
import { resolveAliases } from './alias-resolution.ts';
import type { ConfigProblem } from './config-problem.ts';
import { ConfigSource } from './config-source.ts';
import { substituteEnv } from './env-substitution.ts';
import type { EnvValues } from './env-value.ts';
import { withoutExtensionKeys } from './extension-keys.ts';
import { unquotedFlowReferenceAt, unquotedFlowReferenceMessage } from './flow-reference.ts';
import { collectionKeyProblems, forbiddenKeyProblems } from './forbidden-keys.ts';
import { setAsideIncompleteIgnoredSections } from './ignored-sections.ts';
import { issueSentences } from './issue-sentence.ts';
import { knownKeysOf } from './known-keys.ts';
import { applySetOverrides, type OverrideArg } from './set-override.ts';
import { isPathPrefix } from './yaml-path.ts';

/** What parsing a config gives: the validated config and its source, or located problems. */
export type ConfigParseResult =
  | { readonly ok: true; readonly config: KeelConfig; readonly source: ConfigSource }
  | { readonly ok: false; readonly problems: readonly ConfigProblem[] };

/** Inputs of {@link parseConfigText} besides the text. */
export interface ParseConfigOptions {
  /** The file name shown in locations (`live.yaml:6:14`). */
  readonly file: string;
  /** Values for `${VAR}` references. */
  readonly env: EnvValues;
  /** `--set path=value` arguments, applied before validation. */
  readonly overrides?: readonly OverrideArg[];
}

/** Syntax errors listed one by one; a file with more (not YAML at all, often) gets a count of the rest. */
const SYNTAX_ERRORS_SHOWN = 10;

/**
 * Parses, overrides, substitutes and validates a config text: the whole pipeline except file
 * I/O. Every problem is located; a problem in one step hides the zod issues it would cause.
 * @param text - the YAML text
 * @param options - file name, environment values and overrides
 * @returns the config, or every problem found, in file order
 */
export function parseConfigText(text: string, options: ParseConfigOptions): ConfigParseResult {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true, merge: true });
  const source = new ConfigSource(doc, lines, options.file);
  if (doc.errors.length > 0) {
    const first = (doc.errors[0] as (typeof doc.errors)[number]).pos[0];
    const reference = unquotedFlowReferenceAt(text, first);
    // The errors after it on that line and below all follow from it.
    if (reference !== undefined)
      return {
        ok: false,
        problems: [source.problemAtOffset(first - 1, unquotedFlowReferenceMessage(reference))],
      };
    const shown = doc.errors
      .slice(0, SYNTAX_ERRORS_SHOWN)
      .map((error) => source.problemAtOffset(error.pos[0], `syntax error: ${error.message.split('\n')[0]}`));
    const more = doc.errors.length - shown.length;
    return {
      ok: false,
      problems:
        more === 0
          ? shown
          : [
              ...shown,
              {
                path: [],
                subject: 'YAML',
                message: `has ${more} more syntax error${more === 1 ? '' : 's'}: is ${options.file} a YAML config?`,
                where: '',
              },
            ],
    };
  }
  if (doc.warnings.length > 0) {
    return {
      ok: false,
      problems: doc.warnings.map((warning) =>
        source.problemAtOffset(warning.pos[0], `is not read by Keel: ${warning.message.split('\n')[0]}`),
      ),
    };
  }
  const early = [
    ...applySetOverrides(source, options.overrides ?? []),
    ...substituteEnv(source, options.env, SECRET_PATHS),
    ...forbiddenKeyProblems(source),
  ];
  const keyShapes = collectionKeyProblems(source);
  if (keyShapes.length > 0) return { ok: false, problems: sortByPlace([...early, ...keyShapes]) };
  const resolved = resolveAliases(source);
  if (!resolved.ok) return { ok: false, problems: sortByPlace([...early, resolved.problem]) };
  const aside = setAsideIncompleteIgnoredSections(withoutExtensionKeys(resolved.data));
  const parsed = keelConfigSchema.safeParse(aside.data, { reportInput: true });
  const issues = [...aside.issues, ...(parsed.success ? [] : parsed.error.issues)];
  const late =
    issues.length === 0
      ? []
      : issueSentences(issues, [], configKeys())
          .filter(
            (issue) =>
              !early.some((problem) => problem.path.length > 0 && isPathPrefix(problem.path, issue.path)),
          )
          .map((issue) => source.problem(issue.path, issue.message, issue.at, issue.standalone));
  const problems = [...early, ...late];
  if (problems.length > 0 || !parsed.success) return { ok: false, problems: sortByPlace(problems) };
  return { ok: true, config: parsed.data, source };
}

let cachedConfigKeys: ReturnType<typeof knownKeysOf> | undefined;

/** The config schema's key lookup, built once on the first invalid config. */
function configKeys(): ReturnType<typeof knownKeysOf> {
  cachedConfigKeys ??= knownKeysOf(keelConfigSchema);
  return cachedConfigKeys;
}

function sortByPlace(problems: readonly ConfigProblem[]): ConfigProblem[] {
  return [...problems].sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.col ?? 0) - (b.col ?? 0));
}
