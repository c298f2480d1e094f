import { readdirSync, readFileSync, statSync } from 'node:fs';
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
    const env = {
      KEEL_REST_URL: 'https://venue.example',
      KEEL_API_KEY: 'example-key',
      KEEL_API_SECRET: 'example-secret',
    };
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

/** Hosts that can never be registered (RFC 2606, RFC 6761), where a signed request goes nowhere. */
const RESERVED_HOST =
  /(^|\.)(example|invalid|test|localhost)$|^example\.(com|net|org)$|^127\.0\.0\.1$|^\[::1\]$/;

/** Every Markdown file of the project but the changelog, which quotes old defects. */
function docs(dir = '.'): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name.startsWith('.')) return [];
    if (statSync(path).isDirectory()) return docs(path);
    return name.endsWith('.md') && name !== 'CHANGELOG.md' ? [path] : [];
  });
}

describe('the URLs of examples and docs', () => {
  it.each([...files.map((name) => join(EXAMPLES, name)), ...docs()])(
    '%s names no venue a stranger could register, which would receive signed requests and the API key',
    (path) => {
      const urls = readFileSync(path, 'utf8').match(/\b(https?|wss?):\/\/[^\s)`'"<>}]+/g) ?? [];
      const hosts = urls.map((url) => new URL(url.replace(/\.\.\.$/, 'placeholder.example')).hostname);
      expect(hosts.filter((host) => !RESERVED_HOST.test(host))).toEqual([]);
    },
  );
});
