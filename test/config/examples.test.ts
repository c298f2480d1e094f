import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatConfigProblem, loadConfig } from '../../config/loader/index.ts';

const EXAMPLES = 'config/examples';
const files = readdirSync(EXAMPLES).filter((name) => name.endsWith('.yaml'));

describe('example configs', () => {
  it('cover every mode', () => {
    expect(files).toEqual(expect.arrayContaining(['backtest.yaml', 'live.yaml', 'paper.yaml']));
  });

  it.each(files)('%s validates (credentials from the environment)', (name) => {
    const env = { KEEL_API_KEY: 'example-key', KEEL_API_SECRET: 'example-secret' };
    const result = loadConfig(join(EXAMPLES, name), { env });
    expect(result.ok ? [] : result.problems.map(formatConfigProblem)).toEqual([]);
    expect(result.ok && result.config.mode).toBe(name.replace('.yaml', ''));
  });

  it.each(files)('%s points editors at the generated JSON Schema', (name) => {
    const firstLine = readFileSync(join(EXAMPLES, name), 'utf8').split('\n')[0];
    expect(firstLine).toBe('# yaml-language-server: $schema=../keel.schema.json');
  });
});
