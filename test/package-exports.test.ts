import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirsRemovedAfterEach } from './kit/temp-dirs.ts';

const tempDir = tempDirsRemovedAfterEach('keel-package-exports-');

// A program of the user's own, in a project that installed Keel (`npm install /path/to/keel` links
// it into node_modules), imports the entry points the README names by the package's name.
const SCRIPT = `import { defineStrategy } from 'keel';
import { D } from 'keel/model';
import { runBacktest } from 'keel/backtest';
import { runConfiguredBacktest } from 'keel/config/compose/backtest-run.ts';
import { defineStrategy as inRepo } from '${resolve('core/kernel/index.ts')}';
console.log(JSON.stringify({
  sameApi: defineStrategy === inRepo,
  runBacktest: typeof runBacktest,
  deepPath: typeof runConfiguredBacktest,
  sum: D('0.1').plus('0.2').toFixed(),
}));
`;

describe('the package entry points', () => {
  it('let a project that installed Keel import keel, keel/model and keel/backtest by name, and any file by its path', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(resolve('.'), join(dir, 'node_modules', 'keel'), 'dir');
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    writeFileSync(join(dir, 'script.ts'), SCRIPT);
    const run = spawnSync(process.execPath, [resolve('node_modules/tsx/dist/cli.mjs'), 'script.ts'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 60_000,
      env: { PATH: process.env.PATH ?? '' },
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      sameApi: true,
      runBacktest: 'function',
      deepPath: 'function',
      sum: '0.3',
    });
  }, 90_000);
});
