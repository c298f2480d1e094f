import { formatYamlPath, type YamlPath } from './yaml-path.ts';

/**
 * One thing wrong with a config, located: the field, a sentence about it, and where it was
 * written (`file:line:col`, or the `--set` argument that put it there).
 */
export interface ConfigProblem {
  /** Full path of the field; empty for file-level problems (syntax, missing file). */
  readonly path: YamlPath;
  /** What the sentence starts with, e.g. `risk.maxOrderQty`. */
  readonly subject: string;
  /** The rest of the sentence, e.g. `must be positive`. */
  readonly message: string;
  /** The message is a sentence of its own (a schema's own rule), set off from the subject by a colon. */
  readonly standalone?: boolean;
  /** `config.yaml:14:7`, `--set strategies.0.params.fast=x`, or '' when the subject says it all. */
  readonly where: string;
  /** 1-based line, when the problem has a place in the file. */
  readonly line?: number;
  /** 1-based column, when the problem has a place in the file. */
  readonly col?: number;
}

/**
 * The one line a user sees for a problem:
 * `✖ risk.maxOrderQty must be positive → at strategies[0].risk.maxOrderQty (config.yaml:14:7)`.
 * @param problem - the problem
 * @returns the sentence, without a trailing newline
 */
export function formatConfigProblem(problem: ConfigProblem): string {
  const sentence = `✖ ${problem.subject}${problem.standalone === true ? ':' : ''} ${problem.message}`;
  if (problem.where === '') return sentence;
  return problem.path.length === 0
    ? `${sentence} (${problem.where})`
    : `${sentence} → at ${formatYamlPath(problem.path)} (${problem.where})`;
}

/** Thrown by `loadValidConfig` when a config has problems; the message lists them, one a line. */
export class ConfigInvalidError extends Error {
  /** The problems, in file order. */
  readonly problems: readonly ConfigProblem[];

  /**
   * @param problems - at least one problem
   */
  constructor(problems: readonly ConfigProblem[]) {
    super(problems.map(formatConfigProblem).join('\n'));
    this.name = 'ConfigInvalidError';
    this.problems = problems;
  }
}
