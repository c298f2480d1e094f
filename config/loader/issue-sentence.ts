import type { z } from 'zod';
import { closestKey } from '../../core/kernel/closest-key.ts';
import type { KnownKeys } from './known-keys.ts';
import type { YamlPath } from './yaml-path.ts';

/** A zod issue turned into the second half of a sentence, with the path it is about. */
export interface IssueSentence {
  readonly path: YamlPath;
  readonly message: string;
  /** Point at the key (unknown or malformed keys) rather than the value. */
  readonly at: 'key' | 'value';
  /**
   * The schema's own message is a sentence of its own ("fast must be shorter than slow"), not
   * the rest of one that starts with the field's name: shown after a colon.
   */
  readonly standalone: boolean;
}

/** zod's stock messages start like this; a schema's own messages are sentences already. */
const STOCK_MESSAGE = /^(Invalid|Too (small|big)|Unrecognized|Expected)/;

/** An own message that goes on from the field's name: "must be ...", "names ...", "repeats ...". */
const GOES_ON = /^(is|are|must|should|has|have|needs?|names?|cannot|can|may|does|gives?|lists?|repeats)\b/;

/**
 * Turns zod issues into sentences a user can act on: "is required", "must be a number, not the
 * string "abc"", "is not a known key". One issue may give several sentences (one per unknown key).
 * @param issues - issues of a safeParse with `reportInput: true`
 * @param base - path to prefix (where the parsed value sits in the config)
 * @param knownKeys - allowed keys by path (relative to the parsed value), for "did you mean"
 * @returns the sentences, in issue order
 */
export function issueSentences(
  issues: readonly z.core.$ZodIssue[],
  base: YamlPath = [],
  knownKeys: KnownKeys = () => [],
): IssueSentence[] {
  const out: IssueSentence[] = [];
  for (const issue of issues) {
    const relative = issue.path.map((segment) => (typeof segment === 'symbol' ? String(segment) : segment));
    const path = [...base, ...relative];
    if (issue.code === 'unrecognized_keys') {
      const forms = (key: string): readonly string[] => knownKeys.formsWith?.(relative, key) ?? [];
      out.push(...unknownKeySentences(issue.keys, path, knownKeys(relative), forms));
    } else if (issue.code === 'invalid_union' && enteredBranch(issue) !== undefined) {
      const branch = enteredBranch(issue) ?? [];
      const within = Object.assign((inner: YamlPath) => knownKeys([...relative, ...inner]), {
        formsWith: (inner: YamlPath, key: string) =>
          knownKeys.formsWith?.([...relative, ...inner], key) ?? [],
      });
      out.push(...issueSentences(branch, path, within));
    } else if (issue.code === 'invalid_union' && keysNoFormKnows(issue).length > 0) {
      out.push(...unknownKeySentences(keysNoFormKnows(issue), path, knownKeys(relative)));
    } else if (issue.code === 'invalid_key') {
      const inner = issue.issues[0];
      out.push({
        path,
        message: `is not a valid key: it ${inner ? messageOf(inner) : 'is malformed'}`,
        at: 'key',
        standalone: false,
      });
    } else {
      const message = messageOf(issue);
      const own = !STOCK_MESSAGE.test(issue.message) && message === issue.message;
      out.push({ path, message, at: 'value', standalone: own && !GOES_ON.test(message) });
    }
  }
  return out;
}

/**
 * "is not a known key", with the key meant (`did you mean fees?`), or, for a key another form of
 * the map takes (`makerBps` under `model: instrument`), the form it goes with: a did-you-mean
 * would offer a sibling key that form does not take either.
 */
function unknownKeySentences(
  keys: readonly string[],
  path: YamlPath,
  allowed: readonly string[],
  formsWith: (key: string) => readonly string[] = () => [],
): IssueSentence[] {
  const known = allowed.filter((key) => !keys.includes(key));
  return keys.map((key) => {
    const forms = allowed.includes(key) ? formsWith(key) : [];
    if (forms.length > 0) {
      const message = `is not a known key here: it goes with ${forms.join(' or ')}`;
      return { path: [...path, key], message, at: 'key', standalone: false };
    }
    const suggestion = closestKey(key, known);
    const hint = suggestion === undefined ? '' : ` (did you mean ${suggestion}?)`;
    return { path: [...path, key], message: `is not a known key${hint}`, at: 'key', standalone: false };
  });
}

/**
 * The keys of a map that no form of a union of objects knows, when no form matched: most often
 * a typo (`{ stopLos: 0.02 }` against `{ stopLoss } | { trailingPct }`), which says more than
 * "does not match any allowed form". A form that took the value as a map (an issue inside it, or
 * about its keys) and named none of its keys unknown knows them all; one that refused a map
 * outright (a string form) has no say.
 */
function keysNoFormKnows(issue: z.core.$ZodIssueInvalidUnion): string[] {
  const maps = issue.errors.filter((branch) =>
    branch.some((inner) => inner.path.length > 0 || inner.code === 'unrecognized_keys'),
  );
  const unknownIn = maps.map(
    (branch) =>
      new Set(
        branch.flatMap((inner) =>
          inner.code === 'unrecognized_keys' && inner.path.length === 0 ? inner.keys : [],
        ),
      ),
  );
  const [first, ...rest] = unknownIn;
  return first === undefined ? [] : [...first].filter((key) => rest.every((set) => set.has(key)));
}

/**
 * The one union branch that accepted the value's shape and failed only inside it (e.g. a map
 * with a bad field, against `name | { name, ... }`): its issues say more than "no form matched".
 */
function enteredBranch(issue: z.core.$ZodIssueInvalidUnion): readonly z.core.$ZodIssue[] | undefined {
  const entered = issue.errors.filter(
    (branch) => branch.length > 0 && branch.every((inner) => inner.path.length > 0),
  );
  return entered.length === 1 ? entered[0] : undefined;
}

function messageOf(issue: z.core.$ZodIssue): string {
  const own = !STOCK_MESSAGE.test(issue.message);
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      // A number schema refuses NaN and the infinities as not numbers: say what it wants instead.
      if (typeof issue.input === 'number' && !Number.isFinite(issue.input))
        return `must be a finite number, not ${describeInput(issue.input)}`;
      return `must be ${expectedText(issue.expected)}, not ${describeInput(issue.input)}`;
    case 'too_small':
      return own
        ? issue.message
        : boundText('at least', 'greater than', issue.origin, issue.minimum, issue.inclusive);
    case 'too_big':
      return own
        ? issue.message
        : boundText('at most', 'less than', issue.origin, issue.maximum, issue.inclusive);
    case 'invalid_value':
      if (issue.input === undefined) return `is required: ${choiceText(issue.values)}`;
      return `must be ${choiceText(issue.values)}, not ${describeInput(issue.input)}`;
    case 'invalid_format':
      if (own) return issue.message;
      // A z.string().regex(): "a valid regex" would read as if the value had to be a pattern.
      if (issue.format === 'regex' && 'pattern' in issue && typeof issue.pattern === 'string')
        return `must match ${issue.pattern}, not ${describeInput(issue.input)}`;
      return `must be a valid ${issue.format}, not ${describeInput(issue.input)}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    case 'invalid_union':
      return own ? issue.message : `does not match any allowed form (got ${describeInput(issue.input)})`;
    default:
      return own ? issue.message : `is invalid (${issue.message})`;
  }
}

function boundText(
  inclusiveWord: string,
  exclusiveWord: string,
  origin: string,
  bound: number | bigint,
  inclusive: boolean | undefined,
): string {
  const n = Number(bound);
  if (origin === 'number' || origin === 'int' || origin === 'bigint') {
    if (n === 0 && inclusiveWord === 'at least')
      return inclusive === false ? 'must be positive' : 'must be zero or more';
    return `must be ${inclusive === false ? exclusiveWord : inclusiveWord} ${n}`;
  }
  if (origin === 'array' || origin === 'set') {
    if (n === 1 && inclusiveWord === 'at least') return 'must list at least one item';
    return `must list ${inclusiveWord} ${n} items`;
  }
  if (origin === 'string' && n === 1 && inclusiveWord === 'at least') return 'must not be empty';
  return `must have ${inclusiveWord} ${n} characters`;
}

function choiceText(values: readonly unknown[]): string {
  const quoted = values.map((value) => JSON.stringify(value));
  return quoted.length <= 2 ? quoted.join(' or ') : `one of ${quoted.join(', ')}`;
}

function expectedText(expected: string): string {
  switch (expected) {
    case 'object':
    case 'record':
      return 'a map (indented key: value lines)';
    case 'array':
      return 'a list (lines starting with "- ")';
    case 'int':
      return 'a whole number';
    case 'boolean':
      return 'true or false';
    default:
      return `a ${expected}`;
  }
}

/**
 * Names a YAML value the way a user wrote it: `the string "abc"`, `the number 5`, `a list`.
 * @param input - the offending value
 * @returns a short description
 */
export function describeInput(input: unknown): string {
  if (input === null) return 'an empty value';
  if (Array.isArray(input)) return 'a list';
  switch (typeof input) {
    case 'string':
      return `the string ${JSON.stringify(input.length > 40 ? `${input.slice(0, 40)}…` : input)}`;
    case 'number':
      return Number.isFinite(input) ? `the number ${input}` : `the YAML ${yamlNonFinite(input)}`;
    case 'boolean':
      return String(input);
    case 'object':
      return 'a map';
    default:
      return typeof input;
  }
}

function yamlNonFinite(input: number): string {
  if (Number.isNaN(input)) return '.nan';
  return input > 0 ? '.inf' : '-.inf';
}
