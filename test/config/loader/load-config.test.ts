import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ConfigInvalidError,
  formatConfigProblem,
  loadConfig,
  loadValidConfig,
} from '../../../config/loader/index.ts';
import { LIVE_ENV, LIVE_YAML } from '../../kit/config-texts.ts';

describe('loading a config file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'keel-config-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it(`fills \${VAR} from a .env file next to the config`, () => {
    writeFileSync(join(dir, 'live.yaml'), LIVE_YAML);
    writeFileSync(
      join(dir, '.env'),
      `# credentials\nT_KEY=${LIVE_ENV.T_KEY}\nT_SECRET="${LIVE_ENV.T_SECRET}"\n`,
    );
    const loaded = loadValidConfig(join(dir, 'live.yaml'), { env: {} });
    expect(loaded.config.venue?.apiSecret.reveal()).toBe(LIVE_ENV.T_SECRET);
    expect(loaded.dir).toBe(dir);
  });

  it('lets the environment win over .env', () => {
    writeFileSync(join(dir, 'live.yaml'), LIVE_YAML);
    writeFileSync(join(dir, '.env'), 'T_KEY=from-dotenv\nT_SECRET=from-dotenv\n');
    const loaded = loadValidConfig(join(dir, 'live.yaml'), { env: { T_SECRET: 'from-env' } });
    expect(loaded.config.venue?.apiSecret.reveal()).toBe('from-env');
    expect(loaded.config.venue?.apiKey.reveal()).toBe('from-dotenv');
  });

  it('reads a credential from the file its NAME_FILE variable names, and locates a file it cannot read', () => {
    writeFileSync(join(dir, 'live.yaml'), LIVE_YAML);
    writeFileSync(join(dir, 'secret.txt'), `${LIVE_ENV.T_SECRET}\n`);
    const env = { T_KEY: LIVE_ENV.T_KEY, T_SECRET_FILE: join(dir, 'secret.txt') };
    expect(loadValidConfig(join(dir, 'live.yaml'), { env }).config.venue?.apiSecret.reveal()).toBe(
      LIVE_ENV.T_SECRET,
    );
    const missing = join(dir, 'nope.txt');
    const result = loadConfig(join(dir, 'live.yaml'), { env: { ...env, T_SECRET_FILE: missing } });
    expect(result.ok ? [] : result.problems.map(formatConfigProblem)).toEqual([
      `✖ venue.apiSecret refers to \${T_SECRET}: T_SECRET is not set, and T_SECRET_FILE names ${missing}, which cannot be read (ENOENT) → at venue.apiSecret (${join(dir, 'live.yaml')}:5:14)`,
    ]);
  });

  it('says which file is missing', () => {
    const result = loadConfig(join(dir, 'nope.yaml'));
    expect(result.ok ? [] : result.problems.map(formatConfigProblem)).toEqual([
      `✖ config file ${join(dir, 'nope.yaml')} does not exist`,
    ]);
  });

  it('refuses a file that is not UTF-8 at its first foreign byte, not with problems about garbled keys', () => {
    const file = join(dir, 'latin1.yaml');
    writeFileSync(
      file,
      Buffer.concat([Buffer.from('mode: backtest\n# caf'), Buffer.from([0xe9]), Buffer.from('\n')]),
    );
    const result = loadConfig(file);
    expect(result.ok ? [] : result.problems.map(formatConfigProblem)).toEqual([
      `✖ config file ${file} is not UTF-8 text: byte 0xe9 (save it as UTF-8) (${file}:2:6)`,
    ]);
  });

  it('throws every problem as one error for callers that do not handle results', () => {
    writeFileSync(join(dir, 'live.yaml'), LIVE_YAML);
    expect(() => loadValidConfig(join(dir, 'live.yaml'), { env: {} })).toThrow(ConfigInvalidError);
    expect(() => loadValidConfig(join(dir, 'live.yaml'), { env: {} })).toThrow(/T_KEY[\s\S]*\n✖ .*T_SECRET/);
  });
});
