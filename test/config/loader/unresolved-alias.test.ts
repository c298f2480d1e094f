import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatConfigProblem, parseConfigText } from '../../../config/loader/index.ts';

const TWAP = readFileSync('config/examples/twap-backtest.yaml', 'utf8');

function problems(text: string): string[] {
  const result = parseConfigText(text, { file: 'bt.yaml', env: {} });
  return result.ok ? [] : result.problems.map(formatConfigProblem);
}

describe('config loader: YAML aliases', () => {
  // Shrunk from the mutation fuzzer (config-mutation.property.test.ts): [{"kind":"insertLine","at":0,"text":"<<: *a"}]
  it('reports an alias to an anchor not defined (yet) as a located problem, not a thrown ReferenceError', () => {
    const text = `x: *defaults\n${TWAP}`;
    expect(() => problems(text)).not.toThrow();
    expect(problems(text).join('\n')).toMatch(/defaults.*bt\.yaml:1:/);
  });

  it('reports too many aliases as a located problem, not a thrown ReferenceError', () => {
    const text = `${TWAP}\nx: &a [1]\ny: [${Array(101).fill('*a').join(', ')}]\n`;
    expect(() => problems(text)).not.toThrow();
    expect(problems(text).join('\n')).toMatch(/more than 100.*bt\.yaml:\d+:/);
  });
});
