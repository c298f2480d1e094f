import { DECIMAL_TEXT } from './decimal-value.ts';
import { keelJsonSchemaText } from './json-schema.ts';

/** Where the generated configuration reference lives, relative to the repository root. */
export const CONFIG_REFERENCE_FILE = 'config/CONFIG-REFERENCE.md';

/** A JSON Schema node, as far as the reference needs it. */
interface SchemaNode {
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly default?: unknown;
  readonly description?: string;
  readonly properties?: Record<string, SchemaNode>;
  readonly required?: readonly string[];
  readonly items?: SchemaNode;
  readonly additionalProperties?: SchemaNode | boolean;
  readonly anyOf?: readonly SchemaNode[];
  readonly oneOf?: readonly SchemaNode[];
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
}

interface Row {
  key: string;
  types: string[];
  required: boolean;
  defaultValue: string;
  description: string;
}

/**
 * A Markdown text with table cells trimmed and separator rows reduced, so a table compares
 * equal before and after a formatter aligns its columns.
 * @param markdown - the text
 * @returns the text with every table row in its narrowest form
 */
export function normalizeMarkdownTables(markdown: string): string {
  return markdown
    .split('\n')
    .map((line) =>
      line.startsWith('|')
        ? line
            .split(/(?<!\\)\|/)
            .map((cell) => cell.trim().replace(/^-{3,}$/, '---'))
            .join('|')
        : line,
    )
    .join('\n');
}

/**
 * The configuration reference as Markdown: one row per key (dotted path, `[]` for list items,
 * `<key>` for free map keys) with its type, whether it is required, its default and its
 * description, all read from the generated JSON Schema so it cannot drift from the schema.
 * @returns the Markdown text, ending with a newline
 */
export function configReferenceMarkdown(): string {
  const lines = [
    '# Keel configuration reference',
    '',
    'Generated from the zod schema by `npm run schema`; a test fails when it is stale. Every map is',
    'strict: a key not listed here is an error. `decimal` is a YAML number or a decimal string',
    `(\`0.5\`, \`"0.5"\` or \`"1e-8"\`); credentials are \`\${ENV_VAR}\` references, never literal values.`,
    '',
    `Environment values: any string may hold \`\${NAME}\` (from the environment, or a \`.env\` file next to`,
    `the config; unset or empty is an error), \`\${NAME:-default}\` (the default when unset or empty), and`,
    `\`$\${\` for a literal \`\${\`. \`venue.apiKey\` and \`venue.apiSecret\` are each exactly one \`\${NAME}\`,`,
    'written in place: no default, no text around it, no YAML anchor (`&a`) or alias (`*a`) on them or',
    'on `venue`. The variable one of them refers to may not be referred to from any other field (a',
    'URL, a param), where the credential would leave the process.',
    '',
    'Sections by mode: `backtest` applies to backtests only, `paper` to paper runs only, `recording`,',
    '`shutdown`, `metrics` and `logging` to live and paper runs (and `keel record`; a backtest serves',
    'no metrics and has no log level), `venue` to live runs (and its connection settings to paper',
    'runs); a section the mode ignores is a warning of `keel validate` and of the run. Fees: a backtest',
    "charges `backtest.fees`; a paper run charges the instruments' own rates (`instruments[].overrides`",
    "`makerFee` / `takerFee`, else the built-in spec's, else none) plus the sub-portfolio markups, and",
    'ignores `backtest.fees`; a live run pays what the venue charges.',
    '',
    ...referenceTable(JSON.parse(keelJsonSchemaText()) as object),
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * A Markdown table of every key of a JSON Schema (as `z.toJSONSchema` writes one): dotted path,
 * type with its bounds, whether it is required, default and description.
 * @param jsonSchema - the schema of an object
 * @returns the table's lines, header first
 */
export function referenceTable(jsonSchema: object): string[] {
  const rows = new Map<string, Row>();
  walk(jsonSchema as SchemaNode, '', false, rows);
  return [
    '| Key | Type | Required | Default | Description |',
    '|---|---|---|---|---|',
    ...[...rows.values()].map(
      (row) =>
        `| \`${row.key}\` | ${cell(row.types.join(' or '))} | ${row.required ? 'yes' : ''} | ${row.defaultValue} | ${cell(row.description)} |`,
    ),
  ];
}

function walk(node: SchemaNode, key: string, required: boolean, rows: Map<string, Row>): void {
  if (key !== '') addRow(rows, key, node, required);
  // A decimal's two variants (number, decimal string) are one type: its row says so already.
  const variants = typeOf(node) === 'decimal' ? [] : [...(node.anyOf ?? []), ...(node.oneOf ?? [])];
  for (const variant of variants) walk(variant, key, required, rows);
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    walk(child, key === '' ? name : `${key}.${name}`, node.required?.includes(name) ?? false, rows);
  }
  if (node.items !== undefined) walk(node.items, `${key}[]`, false, rows);
  if (typeof node.additionalProperties === 'object')
    walk(node.additionalProperties, `${key}.<key>`, false, rows);
}

function addRow(rows: Map<string, Row>, key: string, node: SchemaNode, required: boolean): void {
  const row = rows.get(key) ?? { key, types: [], required, defaultValue: '', description: '' };
  const type = typeOf(node);
  if (type !== undefined && !row.types.includes(type)) row.types.push(type);
  if (node.default !== undefined && row.defaultValue === '')
    row.defaultValue = `\`${JSON.stringify(node.default)}\``;
  if (node.description !== undefined && row.description === '') row.description = node.description;
  row.required ||= required;
  rows.set(key, row);
}

function typeOf(node: SchemaNode): string | undefined {
  if (node.const !== undefined) return JSON.stringify(node.const);
  if (node.enum !== undefined) {
    const values = node.enum.map((value) => JSON.stringify(value));
    // Long lists (risk check names) would make the table unreadable; the JSON Schema has them all.
    return values.length <= 8
      ? values.join(' | ')
      : `${values.slice(0, 3).join(' | ')} | … (${values.length} names)`;
  }
  const variants = node.anyOf ?? node.oneOf;
  if (variants?.some((v) => v.pattern === DECIMAL_TEXT.source) && variants.some((v) => v.type === 'number')) {
    return 'decimal';
  }
  if (variants !== undefined) return undefined;
  const types = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type];
  if (types.length === 0) return 'any';
  const named = types
    .map((t) => ({ object: 'map', array: 'list', integer: 'integer' })[t as string] ?? t)
    .join(' or ');
  const bounds = boundsOf(node);
  return bounds === undefined ? named : `${named}, ${bounds}`;
}

/**
 * A number's bounds as a reader writes them (`1000 to 25000`, `> 0`, `>= 2`, `> 0 and < 1`), or
 * undefined when it has none; an integer's safe-integer limits, which zod writes for every
 * integer, are no bound a user meets.
 */
function boundsOf(node: SchemaNode): string | undefined {
  const real = (bound: number | undefined): number | undefined =>
    bound !== undefined && Math.abs(bound) < Number.MAX_SAFE_INTEGER ? bound : undefined;
  const [min, max] = [real(node.minimum), real(node.maximum)];
  const [above, below] = [real(node.exclusiveMinimum), real(node.exclusiveMaximum)];
  if (min !== undefined && max !== undefined) return `${min} to ${max}`;
  const lower = min !== undefined ? `>= ${min}` : above !== undefined ? `> ${above}` : undefined;
  const upper = max !== undefined ? `<= ${max}` : below !== undefined ? `< ${below}` : undefined;
  const parts = [lower, upper].filter((part) => part !== undefined);
  return parts.length === 0 ? undefined : parts.join(' and ');
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
