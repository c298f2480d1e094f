import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registryFor } from '../../config/compose/strategy-plugins.ts';
import { formatConfigProblem, loadConfig, validateStrategyParams } from '../../config/loader/index.ts';

const EXAMPLES = 'config/examples';
const files = readdirSync(EXAMPLES).filter((name) => name.endsWith('.yaml'));

describe('example configs', () => {
  it('include the backtest npm start points at and the paper run it makes', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'sma-cross-backtest.yaml',
        'market-maker-paper.yaml',
        'replay-paper-session.yaml',
      ]),
    );
  });

  it.each(files)('%s validates, strategy params included', async (name) => {
    const env = { KEEL_API_KEY: 'example-key', KEEL_API_SECRET: 'example-secret' };
    const result = loadConfig(join(EXAMPLES, name), { env });
    expect(result.ok ? [] : result.problems.map(formatConfigProblem)).toEqual([]);
    if (!result.ok) return;
    const registry = await registryFor(result);
    expect(registry.ok ? [] : registry.problems.map(formatConfigProblem)).toEqual([]);
    if (!registry.ok) return;
    const params = validateStrategyParams(result, registry.registry);
    expect(params.ok ? [] : params.problems.map(formatConfigProblem)).toEqual([]);
  });

  it.each(files)('%s points editors at the generated JSON Schema', (name) => {
    const firstLine = readFileSync(join(EXAMPLES, name), 'utf8').split('\n')[0];
    expect(firstLine).toBe('# yaml-language-server: $schema=../keel.schema.json');
  });
});
