import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { formatConfigProblem, parseConfigText } from '../../../config/loader/index.ts';

const DIR = 'config/examples';
export const EXAMPLES = readdirSync(DIR)
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => ({ file: f, text: readFileSync(`${DIR}/${f}`, 'utf8') }));

const SCALARS = [
  '',
  '0',
  '-1',
  '1e400',
  'null',
  '~',
  'true',
  'yes',
  '[]',
  '{}',
  '"x"',
  "'",
  '"',
  '&a',
  '*a',
  '*nope',
  '!!binary aGk=',
  '!!float x',
  '!!int 1.5',
  '.nan',
  '.inf',
  '0x1f',
  '2026-01-01',
  '12:30',
  '<<: *a',
  '- x',
  '? a',
  '|',
  '>',
  '{a: 1, a: 2}',
  '[1, [2, [3]]]',
  '!foo bar',
  '%TAG',
  '@x',
  '`x',
  '#',
  ': x',
  '{ ? [a]: 1 }',
  '!!set {a, b}',
  '!!omap [a: 1]',
  '[a, *a]',
  '&x [*x]',
];

type Mutation =
  | { kind: 'deleteLine'; at: number }
  | { kind: 'dupLine'; at: number }
  | { kind: 'swapLines'; at: number; to: number }
  | { kind: 'value'; at: number; value: string }
  | { kind: 'indent'; at: number; by: number }
  | { kind: 'insertChar'; at: number; col: number; ch: string }
  | { kind: 'truncate'; at: number }
  | { kind: 'insertLine'; at: number; text: string };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('deleteLine' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('dupLine' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('swapLines' as const), at: fc.nat(), to: fc.nat() }),
  fc.record({
    kind: fc.constant('value' as const),
    at: fc.nat(),
    value: fc.oneof(
      fc.constantFrom(...SCALARS.filter((v) => process.env.FUZZ_ALIAS === '1' || !v.includes('*'))),
      fc.string({ maxLength: 6 }).filter((v) => process.env.FUZZ_ALIAS === '1' || !v.includes('*')),
    ),
  }),
  fc.record({ kind: fc.constant('indent' as const), at: fc.nat(), by: fc.integer({ min: -4, max: 4 }) }),
  fc.record({
    kind: fc.constant('insertChar' as const),
    at: fc.nat(),
    col: fc.nat(),
    ch: fc.constantFrom(':', '-', '"', "'", '{', '[', '\t', '#', '&', '!', '|', '\u0000', '\uFEFF', '\r'),
  }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('insertLine' as const),
    at: fc.nat(),
    text: fc.constantFrom(
      'a: &a {x: 1}',
      'strategies: []',
      '---',
      '...',
      '- 1',
      'mode: live',
      'mode: paper',
      'mode: backtest',
      '? [a, b]\n: 1',
      '1: x',
      'null: 2',
      'risk:',
      '  extra: 1',
    ),
  }),
);

export function mutate(text: string, muts: readonly Mutation[]): string {
  let lines = text.split('\n');
  for (const m of muts) {
    const n = Math.max(1, lines.length);
    const at = m.at % n;
    const line = lines[at] ?? '';
    switch (m.kind) {
      case 'deleteLine':
        lines.splice(at, 1);
        break;
      case 'dupLine':
        lines.splice(at, 0, line);
        break;
      case 'swapLines': {
        const to = m.to % n;
        lines[at] = lines[to] ?? '';
        lines[to] = line;
        break;
      }
      case 'value': {
        const i = line.indexOf(': ');
        lines[at] = i >= 0 ? `${line.slice(0, i + 2)}${m.value}` : `${line.replace(/\S.*$/, '')}- ${m.value}`;
        break;
      }
      case 'indent':
        lines[at] =
          m.by >= 0
            ? ' '.repeat(m.by) + line
            : line.slice(Math.min(-m.by, line.length - line.trimStart().length));
        break;
      case 'insertChar': {
        const c = m.col % (line.length + 1);
        lines[at] = line.slice(0, c) + m.ch + line.slice(c);
        break;
      }
      case 'truncate':
        lines = lines.slice(0, at);
        break;
      case 'insertLine':
        lines.splice(at, 0, ...m.text.split('\n'));
        break;
    }
  }
  return lines.join('\n');
}

export function check(file: string, text: string): string[] {
  const bad: string[] = [];
  let result: ReturnType<typeof parseConfigText>;
  try {
    result = parseConfigText(text, { file, env: { KEEL_API_KEY: 'k', KEEL_API_SECRET: 's' } });
  } catch (err) {
    return [`threw: ${(err as Error).stack?.split('\n').slice(0, 4).join(' | ')}`];
  }
  if (result.ok) return [];
  if (result.problems.length === 0) bad.push('not ok with no problem');
  for (const p of result.problems) {
    const line = formatConfigProblem(p);
    if (/\n| {4}at |Error:|undefined|\[object Object\]/.test(line)) bad.push(`ugly: ${line}`);
    // a problem at a field must name its path and line (file-level ones: a line or the file name)
    if (p.path.length > 0 && (p.line === undefined || !p.where.includes(file)))
      bad.push(`unlocated: ${line}`);
    if (p.path.length === 0 && p.where === '' && !/YAML|file/.test(line)) bad.push(`no place: ${line}`);
  }
  return bad;
}
