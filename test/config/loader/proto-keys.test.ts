import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatConfigProblem, parseConfigText } from '../../../config/loader/index.ts';

const EXAMPLE = readFileSync('config/examples/sma-cross-backtest.yaml', 'utf8');

/** The example with `line` added under the first strategy's params. */
function withParam(line: string): string {
  return EXAMPLE.replace(/( +)fast: 3\n/, (match, indent: string) => `${match}${indent}${line}\n`);
}

function problemsOf(text: string): string[] {
  const parsed = parseConfigText(text, { file: 'p.yaml', env: {} });
  return parsed.ok ? [] : parsed.problems.map(formatConfigProblem);
}

describe('a __proto__ key', () => {
  it('inside strategies[].params is a located error (as constructor is when the params are checked), not silently dropped', () => {
    const lines = problemsOf(withParam('__proto__: { polluted: yes }'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /params\.__proto__ is not a known key.*strategies\[0\]\.params\.__proto__ \(p\.yaml:\d+:\d+\)/,
    );
  });

  it('at the top level or in any other map is refused too', () => {
    expect(problemsOf(`__proto__: { mode: live }\n${EXAMPLE}`)[0]).toMatch(
      /^✖ __proto__ is not a known key.*p\.yaml:1:1/,
    );
    expect(problemsOf(EXAMPLE.replace('\nrisk:\n', '\nrisk:\n  __proto__: 1\n'))[0]).toMatch(
      /risk\.__proto__ is not a known key/,
    );
  });
});

describe('a list or a map written as a key', () => {
  it('is a located error at its own line, once, instead of a Node warning and a key named "[ a, b ]"', () => {
    const text = EXAMPLE.replace(
      /( +)fast: 3\n/,
      (_match, indent: string) => `${indent}? [a, b]\n${indent}: 3\n`,
    );
    const line = text.split('\n').findIndex((l) => l.includes('? [a, b]')) + 1;
    const warnings: unknown[] = [];
    const onWarning = (warning: unknown) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const lines = problemsOf(text);
      expect(lines.filter((l) => l.includes('[ a, b ]'))).toEqual([
        `✖ params.[ a, b ] is not a known key: a config key is a plain name, not a list or a map → at strategies[0].params.[ a, b ] (p.yaml:${line}:9)`,
      ]);
      expect(problemsOf(`? { mode: live }\n: 1\n${EXAMPLE}`)[0]).toMatch(
        /is not a known key: a config key is a plain name.*\(p\.yaml:1:3\)/,
      );
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual([]);
  });
});
