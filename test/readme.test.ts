import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const readme = readFileSync('README.md', 'utf8');

/** The fenced blocks of one language in the README, in order. */
function blocks(language: string): string[] {
  return [...readme.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map(
    (m) => m[1] ?? '',
  );
}

describe('README', () => {
  it('starts with the two quick-start commands', () => {
    expect(blocks('sh')[0]).toBe('npm ci && npm start\nnpm test\n');
  });

  it('shows the first strategy exactly as config/examples/first-strategy.ts has it, so the example runs', () => {
    const example = readFileSync('config/examples/first-strategy.ts', 'utf8');
    expect(blocks('ts')).toContain(example);
    expect(example.trimEnd().split('\n').length).toBeLessThanOrEqual(30);
  });

  it('names only example configs that exist', () => {
    const named = new Set(readme.match(/config\/examples\/[a-z0-9-]+\.(?:yaml|ts)/g) ?? []);
    expect(named.size).toBeGreaterThan(3);
    for (const path of named) expect(() => readFileSync(path), path).not.toThrow();
  });
});
